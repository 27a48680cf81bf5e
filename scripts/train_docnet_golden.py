#!/usr/bin/python3
"""Writes the golden preprocessing files of pkg/onnxrt/testdata: two small
images (an RGB one and a greyscale one, neither square) and the input
tensors the training script makes of them, through the very functions
training and evaluation use (train_docnet_data.squash, to_input and
train_docnet.normalise). pkg/onnxrt's TestTensorMatchesTrainingGolden
requires InputSpec.Tensor to produce the same tensors.

    /usr/bin/python3 scripts/train_docnet_golden.py [pkg/onnxrt/testdata]

The files are committed; rerun this only when the preprocessing changes.
"""

import json
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_docnet as train  # noqa: E402
import train_docnet_data as data  # noqa: E402

SIZE = 24


def rgb_image():
    # Distinct content per channel so a swapped channel order shows.
    y, x = np.mgrid[0:43, 0:61]
    r = (x * 7 + y * 3) % 256
    g = (x * y) % 251
    b = np.where((x // 5 + y // 4) % 2 == 0, 230, 20)
    return Image.fromarray(np.stack([r, g, b], -1).astype(np.uint8), "RGB")


def grey_image():
    y, x = np.mgrid[0:70, 0:50]
    return Image.fromarray(((x * 11 + y * 5) % 256).astype(np.uint8), "L")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(train.ROOT, "pkg", "onnxrt", "testdata")
    os.makedirs(out, exist_ok=True)
    cases = []
    for name, img in (("golden_rgb", rgb_image()), ("golden_grey", grey_image())):
        png = os.path.join(out, name + ".png")
        img.save(png)
        with Image.open(png) as im:  # what was written, as training reads a crop
            a = data.squash(im, SIZE)
        t = train.normalise(data.to_input(a[None])).numpy().astype("<f4")
        t.tofile(os.path.join(out, name + ".f32"))
        cases.append(name)
    meta = {"size": SIZE, "scale": 1 / 255, "mean": list(train.MEAN), "std": list(train.STD), "cases": cases,
            "made": "scripts/train_docnet_golden.py: train_docnet_data.squash, to_input, train_docnet.normalise; "
                    "float32 NCHW little-endian, batch 1"}
    with open(os.path.join(out, "golden.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    print(f"wrote {', '.join(cases)} to {out}")


if __name__ == "__main__":
    main()
