"""Training batches for cropnet made on the training device (--gpu-batches).

One Python process cannot feed a GPU with train_cropnet_data's NumPy
batches (about 19 ms a sample), and worker processes only move the limit
to the CPU's cores. Here every scene is uploaded once, as uint8, and each
batch is made on the device with the same recipe as train_cropnet_data:

- letterbox: an optional random zoomed crop of the scene (25 %), shrunk so
  its longer side is SIZE and placed top-left on a mean-grey canvas. The
  shrink samples the scene bilinearly at twice the canvas resolution and
  averages 2 x 2 blocks, close to the box filter of PIL and OpenCV's
  INTER_AREA at the factors used (scenes at most about twice the canvas);
- targets drawn from the exact quads at canvas resolution: interior (a
  pixel's centre inside a document),
  outline (a pixel's centre within 0.43 BOUNDARY_WIDTH of a side, where no later, upper
  document covers it) and contact (outline pixels lying on two documents);
- one of the eight turns and mirrors, brightness / contrast / colour
  jitter, one random window of the canvas for the whole batch.
"""

import numpy as np
import torch
import torch.nn.functional as F

import train_cropnet_data as data


class DeviceScenes:
    """Scenes held on a torch device, from which batches are drawn."""

    def __init__(self, scenes, size, device):
        self.size, self.device = size, device
        n = len(scenes)
        hmax = max(img.shape[0] for img, _ in scenes)
        wmax = max(img.shape[1] for img, _ in scenes)
        dmax = max(1, max(len(q) for _, q in scenes))
        imgs = torch.full((n, 3, hmax, wmax), data.PAD, dtype=torch.uint8)
        quads = torch.zeros(n, dmax, 4, 2)
        present = torch.zeros(n, dmax, dtype=torch.bool)
        hw = torch.zeros(n, 2)
        for i, (img, q) in enumerate(scenes):
            h, w = img.shape[:2]
            imgs[i, :, :h, :w] = torch.from_numpy(np.ascontiguousarray(img.transpose(2, 0, 1)))
            hw[i] = torch.tensor([h, w], dtype=torch.float32)
            if len(q):
                quads[i, :len(q)] = torch.from_numpy(q)
                present[i, :len(q)] = True
        self.imgs, self.quads, self.present, self.hw = (t.to(device) for t in (imgs, quads, present, hw))
        self.n, self.hmax, self.wmax = n, hmax, wmax
        s = size
        v, u = torch.meshgrid(torch.arange(s, dtype=torch.float32), torch.arange(s, dtype=torch.float32),
                              indexing="ij")
        self.u, self.v = u.to(device), v.to(device)

    def batch(self, idx, gen, augment=True, crop=0, zoom_prob=0.25):
        """Returns (x, y) for the scenes idx (a LongTensor on the device):
        x float32 Bx3xSxS normalised, y float32 Bx3xSxS (interior, outline,
        contact); a window of crop x crop when crop > 0."""
        b, s, dev = len(idx), self.size, self.device
        rand = lambda *shape: torch.rand(*shape, generator=gen, device=dev)  # noqa: E731
        h, w = self.hw[idx, 0], self.hw[idx, 1]
        cw, ch, x0, y0 = w.clone(), h.clone(), torch.zeros(b, device=dev), torch.zeros(b, device=dev)
        if augment:
            zoom = rand(b) < zoom_prob
            fw, fh = 0.55 + 0.45 * rand(b), 0.55 + 0.45 * rand(b)
            cw = torch.where(zoom, torch.floor(w * fw), w)
            ch = torch.where(zoom, torch.floor(h * fh), h)
            x0 = torch.where(zoom, torch.floor(rand(b) * (w - cw + 1)), x0)
            y0 = torch.where(zoom, torch.floor(rand(b) * (h - ch + 1)), y0)
        scale = s / torch.maximum(cw, ch)
        nw = torch.clamp(torch.round(cw * scale), min=1)
        nh = torch.clamp(torch.round(ch * scale), min=1)
        # The canvas pixels the page covers (the rest is padding).
        page = (self.u[None] < nw[:, None, None]) & (self.v[None] < nh[:, None, None])
        x = self._pixels(idx, cw, ch, x0, y0, nw, nh, page)
        y = self._targets(idx, cw, ch, x0, y0, nw, nh, page)
        if augment:
            k = torch.randint(0, 8, (b,), generator=gen, device=dev)
            x, y = _dihedral(x, k), _dihedral(y, k)
            x = _photometric(x, rand)
        x = (x / 255.0 - 0.5) / 0.25  # data.MEAN, data.STD
        if crop and crop < s:
            ox, oy = (int(v) for v in torch.randint(0, s - crop + 1, (2,), generator=gen, device=dev))
            x, y = x[:, :, oy:oy + crop, ox:ox + crop], y[:, :, oy:oy + crop, ox:ox + crop]
        return x.contiguous(), y.contiguous()

    def _pixels(self, idx, cw, ch, x0, y0, nw, nh, page):
        """The letterboxed canvases, float32 0..255."""
        s2 = 2 * self.size
        t = (torch.arange(s2, device=self.device, dtype=torch.float32) + 0.5) / 2  # canvas coordinate of each subsample
        sx = x0[:, None] + t[None] * (cw / nw)[:, None] - 0.5  # source pixel (centres at integers)
        sy = y0[:, None] + t[None] * (ch / nh)[:, None] - 0.5
        gx = (sx + 0.5) / self.wmax * 2 - 1
        gy = (sy + 0.5) / self.hmax * 2 - 1
        grid = torch.stack(torch.broadcast_tensors(gx[:, None, :], gy[:, :, None]), dim=-1)
        src = self.imgs[idx].float()
        fine = F.grid_sample(src, grid, mode="bilinear", padding_mode="border", align_corners=False)
        x = F.avg_pool2d(fine, 2)
        return torch.where(page[:, None], x, torch.full_like(x, float(data.PAD)))

    def _targets(self, idx, cw, ch, x0, y0, nw, nh, page):
        """Interior, outline and contact masks (float32 0/1) on the canvas."""
        q = self.quads[idx].clone()  # B x D x 4 x 2, ring order
        q[..., 0] = (q[..., 0] - x0[:, None, None]) * (nw / cw)[:, None, None]
        q[..., 1] = (q[..., 1] - y0[:, None, None]) * (nh / ch)[:, None, None]
        present = self.present[idx]
        # A pixel's centre (measured against PIL's drawing of the same quads:
        # the interior agrees on 98.6 % of pixels, the outline on 81 %, its
        # area within 1 %).
        u, v = self.u[None] + 0.5, self.v[None] + 0.5
        half = 0.43 * data.BOUNDARY_WIDTH
        fills, lines = [], []
        for d in range(q.shape[1]):
            p = q[:, d]  # B x 4 x 2
            a, e = p, torch.roll(p, -1, dims=1)  # side j runs from a[j] to e[j]
            cross = []
            dist = None
            for j in range(4):
                ax, ay = a[:, j, 0, None, None], a[:, j, 1, None, None]
                dx, dy = (e[:, j, 0] - a[:, j, 0])[:, None, None], (e[:, j, 1] - a[:, j, 1])[:, None, None]
                cross.append(dx * (v - ay) - dy * (u - ax))
                ln = torch.clamp(dx * dx + dy * dy, min=1e-6)
                tt = torch.clamp(((u - ax) * dx + (v - ay) * dy) / ln, 0, 1)
                dj = torch.hypot(u - ax - tt * dx, v - ay - tt * dy)
                dist = dj if dist is None else torch.minimum(dist, dj)
            c = torch.stack(cross)
            inside = (c >= 0).all(0) | (c <= 0).all(0)
            on = present[:, d, None, None]
            fills.append(inside & on)
            lines.append((dist <= half) & on)
        above = torch.zeros_like(fills[0])
        boundary = torch.zeros_like(fills[0])
        for i in range(len(fills) - 1, -1, -1):
            boundary |= lines[i] & ~above
            above |= fills[i]
        count = sum((f | ln).to(torch.uint8) for f, ln in zip(fills, lines))
        contact = boundary & (count >= 2)
        y = torch.stack([above, boundary, contact], dim=1)
        return (y & page[:, None]).float()


def _dihedral(a, k):
    """Applies the k-th (0..7) turn/mirror of each sample, as
    train_cropnet_data.dihedral does on one."""
    out = torch.empty_like(a)
    for kk in range(8):
        sel = (k == kk).nonzero().flatten()
        if len(sel) == 0:
            continue
        t = a[sel]
        if kk >= 4:
            t = torch.flip(t, dims=(3,))
        out[sel] = torch.rot90(t, kk % 4, dims=(2, 3))
    return out


def _photometric(x, rand):
    b = x.shape[0]
    jitter = (rand(b) < 0.8)[:, None, None, None]
    gain = 0.7 + 0.6 * rand(b, 1, 1, 1)
    bias = -30 + 60 * rand(b, 1, 1, 1)
    colour = 0.85 + 0.3 * rand(b, 3, 1, 1)
    x = torch.where(jitter, (x * gain + bias) * colour, x)
    grey = (rand(b) < 0.1)[:, None, None, None]
    x = torch.where(grey, x.mean(dim=1, keepdim=True).expand_as(x), x)
    return torch.clamp(x, 0, 255)
