#!/usr/bin/python3
"""Shrinks docnet's crop folders to carry them to a lent GPU machine.

    /usr/bin/python3 scripts/pack_docnet_data.py --size 128 --out .cache/pack \\
        .cache/train/train .cache/train/train2

Each crop is squashed to SIZE x SIZE as train_docnet.py would squash it
(scripts/train_docnet_data.squash) and saved as WebP (--quality) under
OUT/<folder name>, with a labels.csv naming the new files; train_docnet.py
reads such a folder as it reads the factory's, and squashing a SIZE x SIZE
image to SIZE x SIZE leaves it as it is. 11,700 crops at 128 px and quality
85 take about 25 MB, against about 170 MB for the factory's 256-pixel JPEGs.
"""

import argparse
import csv
import os
import sys
from multiprocessing import Pool

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_docnet_data as data  # noqa: E402


def pack_one(job):
    src, dst, size, quality = job
    with Image.open(src) as im:
        Image.fromarray(data.squash(im, size)).save(dst, "WEBP", quality=quality, method=6)
    return os.path.getsize(dst)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("folders", nargs="+", help="synth -crops folders")
    p.add_argument("--out", required=True)
    p.add_argument("--size", type=int, default=128)
    p.add_argument("--quality", type=int, default=85)
    p.add_argument("--workers", type=int, default=os.cpu_count())
    args = p.parse_args()
    total = 0
    for folder in args.folders:
        dst = os.path.join(args.out, os.path.basename(os.path.normpath(folder)))
        os.makedirs(dst, exist_ok=True)
        with open(os.path.join(folder, "labels.csv"), newline="") as f:
            reader = csv.DictReader(f)
            fields, rows = reader.fieldnames, list(reader)
        jobs = []
        for row in rows:
            name = os.path.splitext(row["file"])[0] + ".webp"
            jobs.append((os.path.join(folder, row["file"]), os.path.join(dst, name), args.size, args.quality))
            row["file"] = name
        with Pool(args.workers) as pool:
            size = sum(pool.map(pack_one, jobs, chunksize=64))
        with open(os.path.join(dst, "labels.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(rows)
        total += size
        print(f"{folder}: {len(rows)} crops -> {dst} ({size / 1e6:.1f} MB)", flush=True)
    print(f"total {total / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
