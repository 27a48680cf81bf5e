"""models/manifest.json for the training scripts: a file's sha256 and the
merge of one model's entry into the manifest, keeping the other models'."""

import hashlib
import json
import os


def sha256(path):
    """Hex sha256 of a file, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_manifest(out_dir, entry):
    """Replaces the entry with the same name in out_dir/manifest.json,
    keeping the other models' entries, sorted by name; written atomically."""
    path = os.path.join(out_dir, "manifest.json")
    man = {"version": 1, "models": []}
    if os.path.exists(path):
        with open(path) as f:
            man = json.load(f)
    man["models"] = [m for m in man.get("models", []) if m.get("name") != entry["name"]] + [entry]
    man["models"].sort(key=lambda m: m["name"])
    with open(path + ".tmp", "w") as f:
        json.dump(man, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
