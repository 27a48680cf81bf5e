"""Trains orinet: the orientation of a document read from its glyphs.

docnet's orientation head sees the whole document squashed to 96 px, where
it must rely on the layout; on real documents it confuses upright with
upside-down mirrored (the layouts of our synthetic documents are not those
of real ones). Glyphs are the same in both worlds (the factory prints with
real fonts), and a letter tells up from down and left from right at once.

orinet reads small greyscale tiles of the document where the gradient
energy is highest (text, mostly), each into the eight rotation codes; the
caller (pkg/orient) sums the tiles' log-probabilities. The tile recipe is
shared with the Go side and must stay in step with pkg/orient/tiles.go:
  1. grey = mean of R, G, B; resized so the longer side is LONG_SIDE px
     (area averaging when shrinking, bilinear when enlarging);
  2. the image is cut into non-overlapping TILE x TILE tiles from the
     top-left corner; a tile's score is the mean of |dx| + |dy| over it;
  3. the TOP tiles with the highest score are read.
Training crops are upright (tools/synth -crops -turn 0 -mirror 0); each tile
is turned into a random one of the eight codes, so the label is exact.

Usage (scripts/models.sh runs it):
  /usr/bin/python3 scripts/train_orinet.py --train DIR --val DIR --out models
"""

import argparse
import csv
import hashlib
import json
import os
import time
from multiprocessing import Pool

import numpy as np
from PIL import Image
import torch
import torch.nn as nn
import torch.nn.functional as F

LONG_SIDE = 800
TILE = 64
TOP = 16
SCALES = (0.7, 1.0, 1.4)  # training only: text sizes around the recipe's
SPECIAL = {"not_document", "empty"}


def apply_rotation(img, r):
    """Applies rotation code r to an HW array: mirror if r >= 4, then turn
    r % 4 quarter turns clockwise."""
    if r >= 4:
        img = img[:, ::-1]
    return np.rot90(img, k=-(r % 4), axes=(0, 1))


def inverse_rotation(r):
    return r if r >= 4 else (4 - r) % 4


def grey_resized(im, long_side):
    """Step 1 of the recipe on a PIL image."""
    g = np.asarray(im.convert("RGB"), dtype=np.float32).mean(axis=2)
    g = Image.fromarray(np.clip(g + 0.5, 0, 255).astype(np.uint8))
    w, h = g.size
    s = long_side / max(w, h)
    size = (max(1, round(w * s)), max(1, round(h * s)))
    return np.asarray(g.resize(size, Image.BOX if s < 1 else Image.BILINEAR), dtype=np.uint8)


def top_tiles(g, top):
    """Steps 2 and 3: the top-scoring tiles of a grey image, best first."""
    h, w = g.shape
    f = g.astype(np.float32)
    e = np.zeros_like(f)
    e[:, :-1] += np.abs(f[:, 1:] - f[:, :-1])
    e[:-1, :] += np.abs(f[1:, :] - f[:-1, :])
    scored = []
    for y in range(0, h - TILE + 1, TILE):
        for x in range(0, w - TILE + 1, TILE):
            scored.append((float(e[y:y + TILE, x:x + TILE].mean()), y, x))
    scored.sort(key=lambda t: -t[0])
    return [g[y:y + TILE, x:x + TILE] for _, y, x in scored[:top]]


def _tiles_of(job):
    path, rotation, upright, scales = job
    with Image.open(path) as im:
        im.load()
        out = []
        for s in scales:
            g = grey_resized(im, int(LONG_SIDE * s))
            if upright and rotation:
                g = np.ascontiguousarray(apply_rotation(g, rotation))
            out.extend(top_tiles(g, TOP))
    return out


def read_labels(folder):
    with open(os.path.join(folder, "labels.csv"), newline="") as f:
        return [r for r in csv.DictReader(f) if r["type"] not in SPECIAL]


def load_train(folders, workers):
    """Upright tiles of every crop at the training scales: uint8 [N, TILE, TILE]."""
    jobs = []
    for d in folders:
        jobs += [(os.path.join(d, r["file"]), int(r["rotation"]), True, SCALES) for r in read_labels(d)]
    with Pool(workers) as p:
        tiles = [t for ts in p.map(_tiles_of, jobs, chunksize=16) for t in ts]
    return np.stack(tiles)


def load_docs(folder, workers):
    """Crops as the factory laid them: per document its tiles (recipe scale
    only) and the code that makes it upright."""
    rows = read_labels(folder)
    jobs = [(os.path.join(folder, r["file"]), 0, False, (1.0,)) for r in rows]
    with Pool(workers) as p:
        tiles = p.map(_tiles_of, jobs, chunksize=16)
    return [(np.stack(t), int(r["rotation"])) for t, r in zip(tiles, rows) if t]


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class OriNet(nn.Module):
    """Tile in (NCHW, 3 channels in [0, 1], averaged to grey), 8 logits out."""

    def __init__(self, widths=(16, 32, 64, 96)):
        super().__init__()
        # Stride 2 at once: glyph strokes are 2 px or wider at the recipe's
        # scale, and the full-resolution layers would cost most of the time.
        layers = [conv_bn(1, widths[0], 2)]
        for i, (cin, cout) in enumerate(zip(widths[:-1], widths[1:])):
            layers.append(conv_bn(cin, cout))
            if i < len(widths) - 2:
                layers.append(conv_bn(cout, cout, 2))
        self.features = nn.Sequential(*layers)
        self.head = nn.Linear(widths[-1], 8)

    def forward(self, x):
        g = (x.mean(dim=1, keepdim=True) - 0.5) / 0.25
        return self.head(self.features(g).mean(dim=(2, 3)))


def augment(tiles, gen):
    """uint8 [n, T, T] upright tiles -> float [n, 3, T, T] lying tiles and
    the codes that make them upright."""
    n = tiles.shape[0]
    codes = torch.randint(0, 8, (n,), generator=gen)
    xs = np.stack([np.ascontiguousarray(apply_rotation(t, inverse_rotation(int(c)))) for t, c in zip(tiles, codes)])
    x = torch.from_numpy(xs).float().div_(255.0).unsqueeze(1)
    # Blur some (low-resolution and defocused photos), then photometric jitter.
    blur = torch.rand(n, generator=gen) < 0.35
    if blur.any():
        k = torch.tensor([1.0, 2.0, 1.0])
        k = (k[:, None] * k[None, :]) / 16.0
        x[blur] = F.conv2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), k.view(1, 1, 3, 3))
    c = 1.0 + (torch.rand(n, 1, 1, 1, generator=gen) * 2 - 1) * 0.4
    b = (torch.rand(n, 1, 1, 1, generator=gen) * 2 - 1) * 0.15
    m = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - m) * c + m + b
    x = x + torch.randn(x.shape, generator=gen) * (torch.rand(n, 1, 1, 1, generator=gen) * 0.04)
    inv = torch.rand(n, generator=gen) < 0.05  # light text on dark ground
    x[inv] = 1.0 - x[inv]
    return x.clamp_(0, 1).expand(-1, 3, -1, -1).contiguous(), codes


def doc_logits(net, docs):
    """Sum of per-tile log-probabilities per document: [D, 8]."""
    net.eval()
    out = []
    with torch.no_grad():
        for tiles, _ in docs:
            x = torch.from_numpy(tiles).float().div_(255.0).unsqueeze(1).expand(-1, 3, -1, -1)
            out.append(F.log_softmax(net(x), dim=1).sum(dim=0))
    return torch.stack(out)


def fit_temperature(logits, labels):
    best, best_t = None, 1.0
    for t in np.exp(np.linspace(np.log(0.5), np.log(40), 200)):
        nll = F.cross_entropy(logits / float(t), labels).item()
        if best is None or nll < best:
            best, best_t = nll, float(t)
    return best_t


def ece(probs, labels, bins=10):
    conf, pred = probs.max(dim=1)
    right = (pred == labels).float()
    total = 0.0
    for i in range(bins):
        m = (conf > i / bins) & (conf <= (i + 1) / bins)
        if m.any():
            total += m.float().mean().item() * abs(right[m].mean().item() - conf[m].mean().item())
    return total


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_manifest(out_dir, entry):
    """Replaces orinet's entry in manifest.json, keeping the others."""
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


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--train", action="append", required=True, help="upright synth -crops folder (repeatable)")
    p.add_argument("--val", required=True, help="synth -crops folder as laid (temperature)")
    p.add_argument("--test", required=True, help="synth -crops folder as laid (metrics)")
    p.add_argument("--out", default="models")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-minutes", type=float, default=12.0)
    p.add_argument("--batch", type=int, default=96)
    p.add_argument("--max-steps", type=int, default=8000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--data-note", default="")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    log = lambda s: print(f"[orinet {time.strftime('%H:%M:%S')}] {s}", flush=True)  # noqa: E731
    t0 = time.time()
    cache = os.path.join(args.train[0], f"orinet_tiles_{LONG_SIDE}_{TILE}_{TOP}.npy")
    if len(args.train) == 1 and os.path.exists(cache):
        tiles = np.load(cache)
    else:
        tiles = load_train(args.train, args.threads)
        if len(args.train) == 1:
            np.save(cache, tiles)
    val, test = load_docs(args.val, args.threads), load_docs(args.test, args.threads)
    log(f"{len(tiles)} training tiles, {len(val)} val and {len(test)} test documents ({time.time() - t0:.0f} s)")

    net = OriNet()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    budget = args.max_minutes * 60
    # The schedule's length comes from the speed of the first steps, so the
    # learning rate anneals within the time budget on any machine.
    start, step, steps_est, sched = time.time(), 0, args.max_steps, None
    while step < steps_est and time.time() - start < budget:
        if step == 20:
            per = (time.time() - start) / 20
            steps_est = max(40, min(args.max_steps, int(budget / per)))
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps_est - 20, pct_start=0.1)
            log(f"{per:.2f} s per step: {steps_est} steps in the budget")
        net.train()
        idx = torch.randint(0, len(tiles), (args.batch,), generator=gen).numpy()
        x, y = augment(tiles[idx], gen)
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched is not None and sched.last_epoch + 1 < sched.total_steps:
            sched.step()
        step += 1
        if step % 50 == 0:
            log(f"step {step} loss {loss.item():.3f} ({(time.time() - start) / 60:.1f} min)")

    vl = doc_logits(net, val)
    vy = torch.tensor([r for _, r in val])
    temp = fit_temperature(vl, vy)
    tl = doc_logits(net, test)
    ty = torch.tensor([r for _, r in test])
    tp = F.softmax(tl / temp, dim=1)
    acc = (tp.argmax(dim=1) == ty).float().mean().item()
    val_acc = (vl.argmax(dim=1) == vy).float().mean().item()
    log(f"{step} steps; val acc {val_acc:.4f}; test acc {acc:.4f}, ECE {ece(tp, ty):.4f}, temperature {temp:.2f}")

    os.makedirs(args.out, exist_ok=True)
    onnx_path = os.path.join(args.out, "orinet.onnx")
    net.eval()
    torch.onnx.export(net, torch.zeros(1, 3, TILE, TILE), onnx_path, opset_version=13, input_names=["tile"],
                      output_names=["orient_logits"],
                      dynamic_axes={"tile": {0: "batch"}, "orient_logits": {0: "batch"}}, do_constant_folding=True)
    entry = {
        "name": "orinet",
        "file": "orinet.onnx",
        "sha256": sha256(onnx_path),
        "bytes": os.path.getsize(onnx_path),
        "input": {"name": "tile", "layout": "NCHW", "color": "RGB", "height": TILE, "width": TILE,
                  "resize": f"tiles: grey, longer side {LONG_SIDE} px (area down, bilinear up), the {TOP} "
                            f"{TILE}x{TILE} grid tiles of highest mean |dx|+|dy| (pkg/orient/tiles.go)",
                  "scale": 1 / 255.0, "mean": [0, 0, 0], "std": [1, 1, 1]},
        "heads": [{"output": "orient_logits", "classes": [str(i) for i in range(8)],
                   "temperature": round(temp, 4)}],
        "training": {"seed": args.seed, "steps": step, "batch": args.batch, "tiles": int(len(tiles)),
                     "data": args.data_note, "long_side": LONG_SIDE, "tile": TILE, "top": TOP,
                     "temperature_note": "applies to the sum of the tiles' log-probabilities"},
        "metrics": {"test_documents": len(test), "test_orientation_accuracy": round(acc, 4),
                    "test_orientation_ece": round(ece(tp, ty), 4), "val_orientation_accuracy": round(val_acc, 4)},
        "made": "scripts/train_orinet.py (PyTorch, CPU), temperature-scaled on the val split, "
                "exported with torch.onnx opset 13",
    }
    write_manifest(args.out, entry)
    log(f"wrote {onnx_path} and manifest; total {(time.time() - t0) / 60:.1f} min")


if __name__ == "__main__":
    main()
