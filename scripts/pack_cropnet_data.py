#!/usr/bin/python3
"""Shrinks cropnet's scene folders to carry them to a lent GPU machine.

    /usr/bin/python3 scripts/pack_cropnet_data.py --out .cache/pack-crop \\
        .cache/train/crop-train .cache/train/crop-train2 .cache/train/crop-val

Each scene image (tools/synth -size 448, a JPEG) is saved again as WebP
(--quality) under OUT/<folder name>, beside a scene JSON that keeps only
what train_cropnet_data.load_scene reads (the file and each document's
quad), so train_cropnet.py reads the packed folder as it reads the
factory's. The GPU machine has no OpenCV, so the factory cannot run there.
8,700 scenes at quality 65 take about 50 MB, against about 220 MB for the
factory's JPEGs and their field values.
"""

import argparse
import glob
import json
import os
from multiprocessing import Pool

from PIL import Image


def pack_one(job):
    src, dst_dir, quality = job
    with open(src) as f:
        scene = json.load(f)
    name = os.path.splitext(scene["file"])[0] + ".webp"
    with Image.open(os.path.join(os.path.dirname(src), scene["file"])) as im:
        im.convert("RGB").save(os.path.join(dst_dir, name), "WEBP", quality=quality, method=6)
    slim = {"file": name, "documents": [{"quad": d["quad"]} for d in scene["documents"]]}
    with open(os.path.join(dst_dir, os.path.basename(src)), "w") as f:
        json.dump(slim, f, separators=(",", ":"))
    return os.path.getsize(os.path.join(dst_dir, name))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("folders", nargs="+", help="tools/synth scene folders")
    p.add_argument("--out", required=True)
    p.add_argument("--quality", type=int, default=65)
    p.add_argument("--workers", type=int, default=os.cpu_count())
    args = p.parse_args()
    total = 0
    for folder in args.folders:
        dst = os.path.join(args.out, os.path.basename(os.path.normpath(folder)))
        os.makedirs(dst, exist_ok=True)
        jobs = [(path, dst, args.quality) for path in sorted(glob.glob(os.path.join(folder, "scene_*.json")))]
        if not jobs:
            raise SystemExit(f"{folder}: no scene_*.json (not a tools/synth scene folder)")
        with Pool(args.workers) as pool:
            size = sum(pool.map(pack_one, jobs, chunksize=64))
        total += size
        print(f"{folder}: {len(jobs)} scenes -> {dst} ({size / 1e6:.1f} MB)", flush=True)
    print(f"total {total / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
