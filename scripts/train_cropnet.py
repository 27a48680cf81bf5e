#!/usr/bin/env python3
"""Trains cropnet, the neural cropper's segmentation network, on synthetic
scenes from the document factory (tools/synth; never on real photos),
exports it to ONNX (opset 13) and records it in models/manifest.json next
to the other models.

The network (train_cropnet_model.py) sees the page letterboxed to 256 x 256
and predicts two maps: document interior and visible document outline
(train_cropnet_data.py draws both from the scenes' exact quads). pkg/crop
(neural.go) splits interior minus outline into connected components, fits a
quadrilateral to each and refines it at full resolution.

Training runs for --steps steps or --max-minutes, whichever ends first; the
learning rate follows a cosine over whichever of the two is further along,
so a slower machine still ends on a decayed rate. With --checkpoint the
network, the optimiser and the progress are saved every 500 steps and at
the end, and a run started again with the same --checkpoint resumes where
the last one stopped (its time budget counts the time already spent).
Tensors are kept channels-last: PyTorch's CPU convolutions run the
depthwise layers about 1.7 times faster that way.

--device cuda trains on a GPU where PyTorch has one; --workers N then makes
the batches in N processes (each with its own random stream, so a resumed
run does not repeat the exact batches), as one Python process cannot feed
a GPU. --no-export stops after the checkpoint: a run on another machine
brings the checkpoint back, and the same command with --steps no larger
than the checkpoint's step count evaluates and exports it here.
"""

import argparse
import base64
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cropnet_onnx  # noqa: E402
import train_cropnet_data as data  # noqa: E402
from model_manifest import sha256, write_manifest  # noqa: E402
from train_cropnet_gpu import DeviceScenes  # noqa: E402
from train_cropnet_model import CropNet  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train", action="append", required=True, help="factory scene folder (repeatable)")
    p.add_argument("--val", required=True, help="held-out factory scene folder")
    p.add_argument("--out", default="models")
    p.add_argument("--name", default="cropnet")
    p.add_argument("--steps", type=int, default=2400)
    p.add_argument("--batch", type=int, default=12)
    p.add_argument("--size", type=int, default=256, help="the network's square input (the letterbox canvas)")
    p.add_argument("--crop", type=int, default=192, help="train on random crops of this size of the canvas")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--max-minutes", type=float, default=45)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--widths", default="16,32,64,128,192",
                   help="encoder widths at strides 2..32 (train_cropnet_model.CropNet)")
    p.add_argument("--contact-weight", type=float, default=0.0,
                   help="weigh the outline's loss 1 + this where it parts two documents (overlapping or touching)")
    p.add_argument("--device", default="cpu", help="cpu, or cuda where PyTorch sees a GPU")
    p.add_argument("--workers", type=int, default=0, help="processes making batches (0: the training process)")
    p.add_argument("--device-batches", action="store_true",
                   help="make the batches on --device from scenes uploaded once (train_cropnet_gpu.py)")
    p.add_argument("--no-export", action="store_true", help="train and save the checkpoint only (needs --checkpoint)")
    p.add_argument("--init", default="",
                   help="start from this checkpoint's network weights (a fresh optimiser and schedule: fine-tuning); "
                        "an exported .onnx (cropnet_onnx.py) needs --freeze-bn")
    p.add_argument("--freeze-bn", action="store_true",
                   help="keep the batch norms in evaluation mode (fine-tuning from an exported .onnx)")
    p.add_argument("--hard", type=float, default=0.0,
                   help="draw this share of each batch's scenes in proportion to their loss under the network "
                        "the run starts or resumes from (the rest uniformly; not with --device-batches)")
    p.add_argument("--checkpoint", default="", help="save progress here every 500 steps; resume from it if present")
    p.add_argument("--data-note", default="", help="how the scenes were made, for the manifest")
    return p.parse_args()


def loss_fn(logits, y, contact_weight=0.0):
    """BCE on both maps (the thin outline weighted up, and where it parts
    two documents 1 + contact_weight times more) plus a soft Dice on the
    outline, which keeps it from vanishing on large pages."""
    li = F.binary_cross_entropy_with_logits(logits[:, 0], y[:, 0])
    pw = torch.tensor(4.0, device=logits.device)
    wb = 1 + contact_weight * y[:, 2] if contact_weight else None
    lb = F.binary_cross_entropy_with_logits(logits[:, 1], y[:, 1], weight=wb, pos_weight=pw)
    pb = torch.sigmoid(logits[:, 1])
    inter = (pb * y[:, 1]).sum(dim=(1, 2))
    dice = 1 - (2 * inter + 1) / (pb.sum(dim=(1, 2)) + y[:, 1].sum(dim=(1, 2)) + 1)
    return li + lb + dice.mean()


def evaluate(net, scenes, batch=16, device="cpu"):
    """Pixel IoU of the interior map, F1 of the outline map and recall of
    the outline where it parts two documents, at 0.5."""
    net.eval()
    rng = np.random.default_rng(0)
    ti = ui = tb = pb = gb = tc = gc = 0.0
    with torch.no_grad():
        for s in range(0, len(scenes), batch):
            x, y = data.batch(scenes, range(s, min(s + batch, len(scenes))), rng, augment=False)
            x = torch.from_numpy(x).to(device).contiguous(memory_format=torch.channels_last)
            p = net(x).cpu().numpy() > 0.5
            y = y > 0.5
            ti += np.logical_and(p[:, 0], y[:, 0]).sum()
            ui += np.logical_or(p[:, 0], y[:, 0]).sum()
            tb += np.logical_and(p[:, 1], y[:, 1]).sum()
            pb += p[:, 1].sum()
            gb += y[:, 1].sum()
            tc += np.logical_and(p[:, 1], y[:, 2]).sum()
            gc += y[:, 2].sum()
    net.train()
    return {"interior_iou": float(ti / max(ui, 1)), "boundary_f1": float(2 * tb / max(pb + gb, 1)),
            "contact_recall": float(tc / max(gc, 1))}


def save_checkpoint(path, net, opt, step, elapsed, rng, where):
    """Writes the progress of a run atomically (see --checkpoint); where
    says what it was trained on, for the manifest."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "step": step, "elapsed": elapsed, "size": data.SIZE,
                # plain Python ints: NumPy 2 pickles its own integers under a module
                # NumPy 1 lacks, and a checkpoint made on another machine is
                # exported here
                "rng": json.loads(json.dumps(rng.bit_generator.state, default=int)), "where": where}, path + ".tmp")
    os.replace(path + ".tmp", path)


def scene_weights(net, scenes, hard, device, batch=16):
    """Each scene's probability of being drawn: (1 - hard) spread evenly,
    hard in proportion to the scene's loss (whole letterboxed scene, no
    augmentation) under net."""
    losses = np.zeros(len(scenes))
    was_training = net.training
    net.eval()
    rng = np.random.default_rng(0)
    with torch.no_grad():
        for s in range(0, len(scenes), batch):
            idx = range(s, min(s + batch, len(scenes)))
            x, y = data.batch(scenes, idx, rng, augment=False)
            logits = net.logits(torch.from_numpy(x).to(device).contiguous(memory_format=torch.channels_last))
            y = torch.from_numpy(y).to(device)
            for j, i in enumerate(idx):
                losses[i] = loss_fn(logits[j:j + 1], y[j:j + 1]).item()
    net.train(was_training)
    return (1 - hard) / len(scenes) + hard * losses / losses.sum()


def draw(rng, n, args):
    """A batch's scene indices: uniform, or by args.weights (--hard)."""
    weights = getattr(args, "weights", None)
    if weights is None:
        return rng.integers(0, n, size=args.batch)
    return rng.choice(n, size=args.batch, p=weights)


class Batches(torch.utils.data.IterableDataset):
    """An endless stream of training batches, made in DataLoader worker
    processes, each drawing from its own random stream."""

    def __init__(self, scenes, args, offset):
        self.scenes, self.args, self.offset = scenes, args, offset

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([self.args.seed, self.offset, info.id if info else 0])
        while True:
            idx = draw(rng, len(self.scenes), self.args)
            yield data.batch(self.scenes, idx, rng, crop=self.args.crop)


def batch_source(scenes, args, rng, offset):
    """Yields (x, y) batches as tensors: from worker processes with
    --workers, else made here from rng (the CPU runs' reproducible stream).
    Nothing starts before the first batch is asked for."""
    if args.device_batches:
        held = DeviceScenes(scenes, args.size, args.device)
        gen = torch.Generator(device=args.device)
        gen.manual_seed(args.seed * 1000003 + offset)
        while True:
            idx = torch.randint(0, held.n, (args.batch,), generator=gen, device=args.device)
            yield held.batch(idx, gen, crop=args.crop)
    if args.workers > 0:
        loader = torch.utils.data.DataLoader(Batches(scenes, args, offset), batch_size=None,
                                             num_workers=args.workers, prefetch_factor=8, persistent_workers=True)
        yield from loader
        return
    while True:
        idx = draw(rng, len(scenes), args)
        x, y = data.batch(scenes, idx, rng, crop=args.crop)
        yield torch.from_numpy(x), torch.from_numpy(y)


def train(net, scenes, val, args, log, where):
    rng = np.random.default_rng(args.seed)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    step, spent = 0, 0.0
    resuming = bool(args.checkpoint) and os.path.exists(args.checkpoint)
    if args.init.endswith(".onnx") and not resuming:
        # Read and checked on the CPU (the reference input is a CPU array).
        cropnet_onnx.load(net.cpu(), args.init, args.size)
        diff = cropnet_onnx.check_reference(net, args.init, reference_input(args.size))
        net.to(args.device).to(memory_format=torch.channels_last)
        log(f"loaded network matches {args.init}'s reference output within {diff:.1g}" if diff is not None
            else f"no reference output beside {args.init} to check the loaded network against")
        before = cropnet_onnx.trained_on(args.init) or "?"
        where = f"{before}, then fine-tuned from its exported weights ({os.path.basename(args.init)}) on {where}"
        log(f"network weights from {args.init}")
    elif args.init and not resuming:
        ck = torch.load(args.init, map_location=args.device)
        if ck.get("size", 256) != args.size:
            sys.exit(f"train_cropnet.py: {args.init} was trained at --size {ck.get('size', 256)}, not {args.size}")
        net.load_state_dict(ck["net"])
        where = f"{ck.get('where', '?')}, then fine-tuned on {where}"
        log(f"network weights from {args.init} (step {ck['step']})")
    if resuming:
        ck = torch.load(args.checkpoint, map_location=args.device)
        if ck.get("size", 256) != args.size:
            sys.exit(f"train_cropnet.py: {args.checkpoint} was trained at --size {ck.get('size', 256)}, not {args.size}")
        where = ck.get("where", where)
        net.load_state_dict(ck["net"])
        opt.load_state_dict(ck["opt"])
        step, spent = ck["step"], ck["elapsed"]
        rng.bit_generator.state = ck["rng"]
        log(f"resumed from {args.checkpoint} at step {step} ({spent / 60:.1f} min spent)")
    if args.hard > 0:
        args.weights = scene_weights(net, scenes, args.hard, args.device)
        log(f"--hard {args.hard}: scenes drawn by loss, the hardest {args.weights.max() * len(scenes):.1f} times "
            f"as often as uniformly, the easiest {args.weights.min() * len(scenes):.2f} times")
    net.train()
    if args.freeze_bn:
        cropnet_onnx.freeze_batch_norms(net)
    t0 = time.time() - spent
    budget = args.max_minutes * 60
    run = 0.0
    first = step
    source = batch_source(scenes, args, rng, first)
    while step < args.steps:
        progress = max(step / args.steps, (time.time() - t0) / budget)
        if progress >= 1:
            log(f"time budget reached at step {step}")
            break
        warm = min(1.0, (step + 1) / 100)
        for g in opt.param_groups:
            g["lr"] = float(args.lr * warm * 0.5 * (1 + np.cos(np.pi * progress)))  # no NumPy scalar in the checkpoint
        x, y = next(source)
        x = x.to(args.device, non_blocking=True).contiguous(memory_format=torch.channels_last)
        loss = loss_fn(net.logits(x), y.to(args.device, non_blocking=True), args.contact_weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
        run = 0.98 * run + 0.02 * loss.item() if step > first else loss.item()
        step += 1
        if step % 100 == 0:
            log(f"step {step} loss {run:.4f} lr {opt.param_groups[0]['lr']:.5f} "
                f"{(time.time() - t0) / step:.2f} s/step")
        if args.checkpoint and step % 500 == 0:
            save_checkpoint(args.checkpoint, net, opt, step, time.time() - t0, rng, where)
        if step % 2000 == 0:
            log(f"val {json.dumps(evaluate(net, val, device=args.device))}")
            if args.freeze_bn:
                cropnet_onnx.freeze_batch_norms(net)
    if args.checkpoint and step > first:
        save_checkpoint(args.checkpoint, net, opt, step, time.time() - t0, rng, where)
    return step, time.time() - t0, where


def export(net, path):
    net.eval()
    net.to(memory_format=torch.contiguous_format)
    dummy = torch.zeros(1, 3, data.SIZE, data.SIZE)
    torch.onnx.export(net, dummy, path, opset_version=13, input_names=["image"], output_names=["masks"],
                      dynamic_axes={"image": {0: "batch"}, "masks": {0: "batch"}}, do_constant_folding=True)


def reference_input(size):
    """A deterministic input the Go test can rebuild exactly: a bright
    rotated-square 'document' on a dark ramp, already normalised."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    u, v = (xx - 128) * 0.94 + (yy - 120) * 0.34, -(xx - 128) * 0.34 + (yy - 120) * 0.94
    inside = (np.abs(u) < 70) & (np.abs(v) < 50)
    lum = np.where(inside, 225.0, 40.0 + 30.0 * xx / size).astype(np.float32)
    x = np.stack([lum, lum, lum])[None] / 255.0
    mean = np.array(data.MEAN, np.float32).reshape(1, 3, 1, 1)
    std = np.array(data.STD, np.float32).reshape(1, 3, 1, 1)
    return ((x - mean) / std).astype(np.float32)


def main():
    args = parse_args()
    if args.init.endswith(".onnx") and not args.freeze_bn:
        sys.exit("train_cropnet.py: an .onnx --init has its batch norms folded: add --freeze-bn")
    if args.hard > 0 and args.device_batches:
        sys.exit("train_cropnet.py: --hard draws the scenes in numpy; --device-batches draws them on the device")
    if args.no_export and not args.checkpoint:
        sys.exit("train_cropnet.py: --no-export keeps only the checkpoint: name one with --checkpoint")
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        sys.exit(f"train_cropnet.py: --device {args.device}, but PyTorch sees no GPU here")
    # The letterbox canvas of train_cropnet_data (256 unless --size says otherwise).
    data.SIZE = args.size
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    log = lambda s: print(f"[cropnet {time.strftime('%H:%M:%S')}] {s}", flush=True)  # noqa: E731
    t_start = time.time()
    scenes = [s for d in args.train for s in data.load_scenes(d)]
    val = data.load_scenes(args.val)
    docs = sum(len(q) for _, q in scenes)
    log(f"train {len(scenes)} scenes ({docs} documents), val {len(val)}; loaded in {time.time() - t_start:.0f}s")

    widths = tuple(int(v) for v in args.widths.split(","))
    net = CropNet(widths).to(args.device).to(memory_format=torch.channels_last)
    params = sum(p.numel() for p in net.parameters())
    where = f"CPU, {args.threads} threads"
    if args.device.startswith("cuda"):
        torch.backends.cudnn.benchmark = True
        feed = "batches made on the GPU" if args.device_batches else f"{args.workers} data workers"
        where = f"{torch.cuda.get_device_name()}, {feed}, torch {torch.__version__}"
    log(f"cropnet: {params} parameters, input {data.SIZE}x{data.SIZE}, on {where}")
    steps, train_s, where = train(net, scenes, val, args, log, where)
    metrics = evaluate(net, val, device=args.device)
    log(f"final val {json.dumps(metrics)}")
    if args.no_export:
        log(f"--no-export: checkpoint {args.checkpoint} at step {steps}")
        return
    net = net.cpu()

    os.makedirs(args.out, exist_ok=True)
    onnx_path = os.path.join(args.out, f"{args.name}.onnx")
    export(net, onnx_path)
    ref_in = reference_input(data.SIZE)
    with torch.no_grad():
        out = net(torch.from_numpy(ref_in)).numpy()
    # Every 97th value of the output: enough to catch a wrong graph or a
    # wrong reading of its output layout, small enough to keep in git.
    ref = {"model": f"{args.name}.onnx", "input": "formula (train_cropnet.py reference_input)",
           "stride": 97, "masks": base64.b64encode(np.ascontiguousarray(out.reshape(-1)[::97], "<f4").tobytes()).decode()}
    with open(os.path.join(args.out, f"{args.name}.reference.json"), "w") as f:
        json.dump(ref, f, indent=1)
        f.write("\n")

    entry = {
        "name": args.name,
        "file": f"{args.name}.onnx",
        "sha256": sha256(onnx_path),
        "bytes": os.path.getsize(onnx_path),
        "input": {"name": "image", "layout": "NCHW", "color": "RGB", "height": data.SIZE, "width": data.SIZE,
                  "resize": "letterbox: longer side shrunk to width (area filter), placed top-left, "
                            "the rest filled with the mean grey",
                  "scale": 1 / 255, "mean": list(data.MEAN), "std": list(data.STD)},
        "heads": [{"output": "masks", "classes": ["interior", "boundary"], "temperature": 1}],
        "training": {
            "seed": args.seed, "script": "scripts/train_cropnet.py", "steps": steps, "batch": args.batch, "crop": args.crop,
            "lr": args.lr, "init": os.path.basename(args.init) if args.init else None, "batches": "device" if args.device_batches else "numpy", "contact_weight": args.contact_weight, "trained_on": where, "train_scenes": len(scenes), "train_documents": docs,
            "val_scenes": len(val), "parameters": int(params), "widths": list(widths), "boundary_width_px": data.BOUNDARY_WIDTH,
            "train_seconds": round(train_s), "torch": torch.__version__, "data": args.data_note,
        },
        "metrics": {"split": "val (synthetic, held out), pixels at 0.5",
                    **{k: round(v, 4) for k, v in metrics.items()}},
        "made": "scripts/models.sh: synthetic scenes from tools/synth, trained by scripts/train_cropnet.py "
                "(PyTorch), exported with torch.onnx opset 13; output masks are sigmoid probabilities "
                f"(batch x 2 x {data.SIZE} x {data.SIZE}: interior, boundary)",
    }
    write_manifest(args.out, entry)
    log(f"wrote {onnx_path} ({entry['bytes']} bytes) and manifest; total {(time.time() - t_start) / 60:.1f} min")


if __name__ == "__main__":
    main()
