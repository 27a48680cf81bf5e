"""Training data for cropnet: factory scenes (tools/synth, scene_*.jpg with
their JSON quads) turned into 256 x 256 letterboxed inputs with interior
and boundary target masks, augmented on the fly.

Letterboxing matches pkg/crop (neural.go): the page is shrunk so its longer
side is SIZE (box filter, as OpenCV's INTER_AREA), placed at the top-left
corner of a SIZE x SIZE canvas, and the rest is filled with the mean grey
(zero after normalisation). Augmentations: a random zoomed crop (documents
cut by the frame edge), the eight turns and mirrors of the canvas, and
brightness / contrast / colour jitter.
"""

import glob
import json
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from PIL import Image, ImageDraw

SIZE = 256
MEAN = (0.5, 0.5, 0.5)
STD = (0.25, 0.25, 0.25)
PAD = 128  # mean grey, 0 after normalisation
BOUNDARY_WIDTH = 3  # px at SIZE


def load_scenes(folder):
    """Returns a list of (image uint8 HxWx3, quads float32 Nx4x2 in ring
    order TL, TR, BR, BL) for every scene JSON in folder, decoded by
    several threads (the decoders release the interpreter's lock)."""
    paths = sorted(glob.glob(os.path.join(folder, "scene_*.json")))
    with ThreadPoolExecutor(max(1, min(8, os.cpu_count() or 1))) as pool:
        return list(pool.map(load_scene, paths))


def load_scene(path):
    """One scene: its image and its quads in ring order."""
    with open(path) as f:
        scene = json.load(f)
    img = np.asarray(Image.open(os.path.join(os.path.dirname(path), scene["file"])).convert("RGB"))
    quads = []
    for d in scene["documents"]:
        q = np.array(d["quad"], np.float32)  # TL, TR, BL, BR
        quads.append(q[[0, 1, 3, 2]])
    return img, np.array(quads, np.float32).reshape(-1, 4, 2)


def masks_for(quads, w, h):
    """Interior (union of the documents), boundary (each outline where no
    later, upper document covers it) and contact (the boundary where two
    documents meet: an upper one's edge lying on a lower one, or two edges
    touching) masks of w x h, as uint8 0/1."""
    interior = np.zeros((h, w), np.uint8)
    boundary = np.zeros((h, w), np.uint8)
    fills, lines = [], []
    for q in quads:
        pts = [tuple(map(float, p)) for p in q]
        m = Image.new("L", (w, h), 0)
        ImageDraw.Draw(m).polygon(pts, fill=1)
        fills.append(np.asarray(m))
        m = Image.new("L", (w, h), 0)
        ImageDraw.Draw(m).line(pts + [pts[0]], fill=1, width=BOUNDARY_WIDTH, joint="curve")
        lines.append(np.asarray(m))
    above = np.zeros((h, w), np.uint8)
    for i in range(len(quads) - 1, -1, -1):
        boundary |= lines[i] & (1 - above)
        above |= fills[i]
    interior = above
    # Pixels of two or more documents (their areas or outline bands): an
    # outline there parts documents rather than a document from the table.
    count = np.zeros((h, w), np.uint8)
    for f, ln in zip(fills, lines):
        count += f | ln
    contact = boundary & (count >= 2)
    return interior, boundary, contact


def letterbox(img, quads, rng, zoom_prob):
    """Shrinks (after an optional random zoomed crop) to the SIZE canvas;
    returns the canvas and the quads in canvas pixels."""
    h, w = img.shape[:2]
    quads = quads.copy()
    if rng.random() < zoom_prob:
        cw, ch = int(w * rng.uniform(0.55, 1.0)), int(h * rng.uniform(0.55, 1.0))
        x0, y0 = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
        img = img[y0:y0 + ch, x0:x0 + cw]
        quads[..., 0] -= x0
        quads[..., 1] -= y0
        h, w = ch, cw
    s = SIZE / max(w, h)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    small = np.asarray(Image.fromarray(img).resize((nw, nh), Image.BOX))
    canvas = np.full((SIZE, SIZE, 3), PAD, np.uint8)
    canvas[:nh, :nw] = small
    quads[..., 0] *= nw / w
    quads[..., 1] *= nh / h
    # Documents the crop removed entirely contribute nothing; partly cut ones
    # are clipped by the mask raster itself (their outline beyond the frame
    # is drawn outside the image and dropped).
    interior, boundary, contact = masks_for(quads, SIZE, SIZE)
    for m in (interior, boundary, contact):
        m[nh:, :] = 0
        m[:, nw:] = 0
    return canvas, interior, boundary, contact


def dihedral(a, k):
    """The k-th (0..7) turn/mirror of an HxW(xC) array."""
    if k >= 4:
        a = a[:, ::-1]
    return np.rot90(a, k % 4)


def photometric(canvas, rng):
    x = canvas.astype(np.float32)
    if rng.random() < 0.8:
        x = x * rng.uniform(0.7, 1.3) + rng.uniform(-30, 30)
        x = x * rng.uniform(0.85, 1.15, size=3).astype(np.float32)
    if rng.random() < 0.1:
        x = np.repeat(x.mean(axis=2, keepdims=True), 3, axis=2)
    return np.clip(x, 0, 255)


def sample(scene, rng, zoom_prob=0.25, augment=True):
    """One training pair: input float32 3xSxS normalised, target float32
    3xSxS (interior, boundary, and contact: where the boundary parts two
    documents, for the loss's weights)."""
    img, quads = scene
    canvas, interior, boundary, contact = letterbox(img, quads, rng, zoom_prob if augment else 0)
    x = canvas.astype(np.float32)
    if augment:
        k = int(rng.integers(0, 8))
        x = dihedral(x, k)
        interior, boundary, contact = dihedral(interior, k), dihedral(boundary, k), dihedral(contact, k)
        x = photometric(x, rng)
    x = (x / 255.0 - np.array(MEAN, np.float32)) / np.array(STD, np.float32)
    y = np.stack([interior, boundary, contact]).astype(np.float32)
    return np.ascontiguousarray(x.transpose(2, 0, 1), np.float32), np.ascontiguousarray(y)


def batch(scenes, idx, rng, augment=True, crop=0):
    """A batch of samples; crop > 0 cuts a random crop x crop window out of
    each (cheaper steps on a shared CPU; the network is fully
    convolutional, and a window edge teaches documents cut by the frame)."""
    xs, ys = zip(*(sample(scenes[i], rng, augment=augment) for i in idx))
    x, y = np.stack(xs), np.stack(ys)
    if crop and crop < SIZE:
        ox, oy = rng.integers(0, SIZE - crop + 1, size=2)
        x = np.ascontiguousarray(x[:, :, oy:oy + crop, ox:ox + crop])
        y = np.ascontiguousarray(y[:, :, oy:oy + crop, ox:ox + crop])
    return x, y
