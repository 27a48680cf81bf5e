"""Data helpers for scripts/train_docnet.py: loading the document factory's
crops, the eight orientation transforms, resizing and augmentation.

Crops come from `go run ./tools/synth -crops`: a folder of JPEG files and a
labels.csv with `file,type,rotation`. The rotation code r = k + 4m makes the
crop upright: mirror left-right when m = 1, then turn k quarter turns
clockwise (docs/architecture.md).
"""

import csv
import os
from multiprocessing import Pool

import numpy as np
from PIL import Image

import torch
import torch.nn.functional as F


def apply_rotation(img, r):
    """Applies rotation code r to an HWC array: mirror if r >= 4, then turn
    r % 4 quarter turns clockwise."""
    if r >= 4:
        img = img[:, ::-1]
    return np.rot90(img, k=-(r % 4), axes=(0, 1))


def inverse_rotation(r):
    """Returns the code that undoes r (a mirrored code is its own inverse)."""
    return r if r >= 4 else (4 - r) % 4


def squash(img, size):
    """Resizes a PIL image to size x size, ignoring its aspect ratio, with
    PIL's antialiased bilinear filter (what pkg/onnxrt's resampler mirrors)."""
    return np.asarray(img.convert("RGB").resize((size, size), Image.BILINEAR), dtype=np.uint8)


def _load_one(job):
    path, size, r, upright = job
    with Image.open(path) as im:
        a = squash(im, size)
    if upright:
        a = apply_rotation(a, r)
    return np.ascontiguousarray(a)


def load_crops(folder, classes, size, upright, workers=2):
    """Loads every crop of a synth -crops folder squashed to size x size.

    Returns (images uint8 [N, size, size, 3], type index [N], rotation [N]).
    With upright=True each image is turned upright with its label (and the
    returned rotations are 0); otherwise images are as they lie.
    """
    index = {c: i for i, c in enumerate(classes)}
    rows = []
    with open(os.path.join(folder, "labels.csv"), newline="") as f:
        for row in csv.DictReader(f):
            if row["type"] not in index:
                raise ValueError(f"{folder}: unknown type {row['type']!r}")
            rows.append(row)
    jobs = [(os.path.join(folder, r["file"]), size, int(r["rotation"]), upright) for r in rows]
    with Pool(workers) as pool:
        imgs = pool.map(_load_one, jobs, chunksize=64)
    x = np.stack(imgs) if imgs else np.zeros((0, size, size, 3), np.uint8)
    y = np.array([index[r["type"]] for r in rows], dtype=np.int64)
    rot = np.array([0 if upright else int(r["rotation"]) for r in rows], dtype=np.int64)
    return x, y, rot


def load_cached(folder, classes, size, upright, workers=2):
    """Like load_crops, keeping a .npz next to the crops so reruns are fast."""
    tag = "up" if upright else "ly"
    cache = os.path.join(folder, f"docnet_{size}_{tag}.npz")
    if os.path.exists(cache):
        d = np.load(cache, allow_pickle=False)
        if list(d["classes"]) == list(classes):
            return d["x"], d["y"], d["rot"]
    x, y, rot = load_crops(folder, classes, size, upright, workers)
    np.savez(cache, x=x, y=y, rot=rot, classes=np.array(classes))
    return x, y, rot


# The eight transforms as 2x2 matrices acting on normalised output
# coordinates (u, v) in [-1, 1]: grid_sample reads the input at A @ (u, v).
# For code t, the network input is the upright image transformed by
# inverse(t), so that applying t to the input gives the upright image.
def _code_matrix(t):
    """Matrix mapping output coords to input coords for the image
    apply_rotation(upright, inverse(t)) read from the upright image."""
    # apply_rotation(img, c): a point (x, y) of img lands at M_c (x, y).
    # Mirror: (x, y) -> (-x, y). One clockwise turn: (x, y) -> (-y, x).
    mirror = np.array([[-1.0, 0.0], [0.0, 1.0]])
    turn = np.array([[0.0, -1.0], [1.0, 0.0]])
    c = inverse_rotation(t)
    m = np.eye(2)
    if c >= 4:
        m = mirror @ m
    for _ in range(c % 4):
        m = turn @ m
    # Output pixel o comes from input pixel M^-1 o.
    return np.linalg.inv(m)


CODE_MATRICES = torch.tensor(np.stack([_code_matrix(t) for t in range(8)]), dtype=torch.float32)


def augment_batch(x, codes, gen, train_size, strength=1.0, noise_gen=None):
    """Turns a uint8 NHWC batch of upright images into a float NCHW batch of
    train_size x train_size lying images: orientation transform inverse(code)
    plus small scale/shift/rotation jitter and photometric changes.

    x is a NumPy array or a uint8 tensor on any device; the small random
    draws come from the CPU generator gen either way (the same draws on
    every device), the pixel noise from noise_gen, a generator on x's
    device, when one is given (else from gen on the CPU)."""
    n = x.shape[0]
    xb = (torch.from_numpy(x) if isinstance(x, np.ndarray) else x).permute(0, 3, 1, 2).float().div_(255.0)
    dev = xb.device
    a = CODE_MATRICES[codes]  # [n, 2, 2]
    s = 1.0 + (torch.rand(n, 2, generator=gen) * 2 - 1) * 0.08 * strength
    ang = (torch.rand(n, generator=gen) * 2 - 1) * 0.05 * strength
    cos, sin = torch.cos(ang), torch.sin(ang)
    rot = torch.stack([torch.stack([cos, -sin], 1), torch.stack([sin, cos], 1)], 1)
    jit = rot * s[:, None, :]
    theta = torch.zeros(n, 2, 3)
    theta[:, :, :2] = a @ jit
    theta[:, :, 2] = (torch.rand(n, 2, generator=gen) * 2 - 1) * 0.05 * strength
    grid = F.affine_grid(theta.to(dev), (n, 3, train_size, train_size), align_corners=False)
    out = F.grid_sample(xb, grid, mode="bilinear", padding_mode="border", align_corners=False)
    # Photometric: brightness, contrast, per-channel gain, grey, gamma.
    b = 1.0 + (torch.rand(n, 1, 1, 1, generator=gen) * 2 - 1) * 0.25 * strength
    c = 1.0 + (torch.rand(n, 1, 1, 1, generator=gen) * 2 - 1) * 0.25 * strength
    g = 1.0 + (torch.rand(n, 3, 1, 1, generator=gen) * 2 - 1) * 0.08 * strength
    b, c, g = b.to(dev), c.to(dev), g.to(dev)
    mean = out.mean(dim=(1, 2, 3), keepdim=True)
    out = ((out - mean) * c + mean) * b * g
    grey = torch.rand(n, generator=gen) < 0.1 * strength
    if grey.any():
        grey = grey.to(dev)
        out[grey] = out[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    out = out.clamp_(0.0, 1.0)
    gamma = torch.exp((torch.rand(n, 1, 1, 1, generator=gen) * 2 - 1) * 0.25 * strength).to(dev)
    out = out.pow(gamma)
    if noise_gen is None:
        noise = torch.randn(out.shape, generator=gen)
    else:
        noise = torch.randn(out.shape, generator=noise_gen, device=dev)
    noise = noise * (torch.rand(n, 1, 1, 1, generator=gen) * 0.03 * strength).to(dev)
    return (out + noise).clamp_(0.0, 1.0)


def to_input(x_uint8):
    """Converts a uint8 NHWC batch to a float NCHW batch in [0, 1]."""
    return torch.from_numpy(np.ascontiguousarray(x_uint8)).permute(0, 3, 1, 2).float().div_(255.0)
