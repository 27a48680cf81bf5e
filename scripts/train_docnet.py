#!/usr/bin/python3
"""Trains docnet, the document type + orientation network, on crops from the
synthetic document factory, calibrates it, exports it to ONNX and records
it in models/manifest.json.

    /usr/bin/python3 scripts/train_docnet.py --train DIR [--train DIR ...] \
        --val DIR --test DIR [--out models] [--epochs N] [--size 128]

--train folders hold upright crops (`go run ./tools/synth -crops -turn 0
-mirror 0`); training turns every crop into a random one of the eight
orientations. --val (temperature scaling) and --test (metrics in the
manifest) hold crops as the factory lays them (`-crops`, default effects).
Run with Debian's /usr/bin/python3 (python3-torch 1.13, CPU).

On a lent GPU (`--device cuda`, any recent PyTorch) the training crops are
held on the device and each batch is augmented there; `--checkpoint F
--no-export` stops after training with the members' weights in F, and
`--from-checkpoint F` here calibrates, measures and exports them with
Debian's PyTorch, as a CPU run would (scripts/pack_docnet_data.py shrinks
the crops to carry them there).

`--init models/docnet.onnx --freeze-bn` fine-tunes the committed members
instead of training new ones (docnet_onnx.py reads them back from the
graph; no checkpoint of them is kept): e.g. on crops cut less exactly
(`tools/synth -crops -crop-jitter 0.05`), at a lower `--lr`.
"""

import argparse
import base64
import glob
import json
import os
import re
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_docnet_data as data  # noqa: E402
from model_manifest import sha256, write_manifest  # noqa: E402
import train_docnet_eval as ev  # noqa: E402
import cropnet_onnx  # noqa: E402
import docnet_onnx  # noqa: E402
from train_docnet_model import DocNet, Ensemble  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEAN = (0.5, 0.5, 0.5)
STD = (0.25, 0.25, 0.25)
OTHER_THRESHOLD = 0.35


def read_classes():
    """The 97 identifiers in pkg/doctypes order: Russian, foreign, specials."""
    with open(os.path.join(ROOT, "pkg", "doctypes", "list.go")) as f:
        src = f.read()
    out = []
    for name in ("russian", "foreign"):
        m = re.search(r"var " + name + r" = \[\.\.\.\]string\{(.*?)\n\}", src, re.S)
        if not m:
            raise SystemExit(f"cannot find {name} in pkg/doctypes/list.go")
        out += re.findall(r'"([a-z0-9_]+)"', m.group(1))
    return out + list(ev.SPECIAL)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--train", action="append", default=[])
    p.add_argument("--val")
    p.add_argument("--test")
    p.add_argument("--out", default=os.path.join(ROOT, "models"))
    p.add_argument("--name", default="docnet")
    p.add_argument("--size", type=int, default=128)
    p.add_argument("--epochs", type=int, default=16)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-minutes", type=float, default=45.0, help="stop training early past this")
    p.add_argument("--widths", default="24,48,96,160,256")
    p.add_argument("--extra", type=int, default=1)
    p.add_argument("--members", type=int, default=1,
                   help="train this many networks (seeds --seed, --seed+1, ...) and export their mean as one model; "
                        "--max-minutes is shared between them")
    p.add_argument("--data-note", default="", help="how the crops were made, for the manifest")
    p.add_argument("--oversample", action="append", default=[], metavar="CLASS=K",
                   help="repeat the training crops of CLASS K times (e.g. other=2: real uploads hold many "
                        "documents outside the catalogue)")
    p.add_argument("--augment", type=float, default=1.0,
                   help="strength of the geometric and photometric jitter (train_docnet_data.augment_batch)")
    p.add_argument("--device", default="cpu", help="cpu, or cuda to train on a GPU")
    p.add_argument("--checkpoint", help="save the trained members' weights here")
    p.add_argument("--no-export", action="store_true",
                   help="stop after training (needs --checkpoint): calibrate and export elsewhere")
    p.add_argument("--from-checkpoint", help="skip training: calibrate, measure and export these members")
    p.add_argument("--init", default="",
                   help="fine-tune the members of this exported docnet (docnet_onnx.py; its manifest beside it gives "
                        "their shape, size and number) instead of training new ones; needs --freeze-bn")
    p.add_argument("--freeze-bn", action="store_true",
                   help="keep every batch norm in evaluation mode while training (an --init graph's are folded)")
    args = p.parse_args()
    if args.init and not args.freeze_bn:
        p.error("--init needs --freeze-bn: the exported graph's batch norms are folded into its convolutions")
    if args.init and args.from_checkpoint:
        p.error("--init and --from-checkpoint both say where the members come from")
    if args.init and not os.path.exists(args.init):
        p.error(f"--init {args.init}: no such file")
    if args.no_export and not args.checkpoint:
        p.error("--no-export needs --checkpoint")
    if not args.from_checkpoint and not args.train:
        p.error("--train is required unless --from-checkpoint is given")
    if not args.no_export and not (args.val and args.test):
        p.error("--val and --test are required to export")
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        p.error("--device cuda: PyTorch sees no GPU here")
    return args


def normalise(x01, dev="cpu"):
    mean = torch.tensor(MEAN).view(1, 3, 1, 1).to(dev)
    std = torch.tensor(STD).view(1, 3, 1, 1).to(dev)
    return (x01 - mean) / std


@torch.no_grad()
def predict(net, x_uint8, batch=256):
    net.eval()
    t, o = [], []
    for i in range(0, len(x_uint8), batch):
        a, b = net(normalise(data.to_input(x_uint8[i:i + batch])))
        t.append(a.numpy())
        o.append(b.numpy())
    return np.concatenate(t), np.concatenate(o)


def train(net, x, y, classes, args, seed, minutes, log):
    """Trains net on the upright crops x (NumPy on the CPU, a uint8 tensor
    already on the device otherwise) for args.epochs or minutes."""
    dev = torch.device(args.device)
    special = torch.tensor([c in ev.SPECIAL for c in classes]).to(dev)
    gen = torch.Generator().manual_seed(seed)
    noise_gen = None if dev.type == "cpu" else torch.Generator(device=dev).manual_seed(seed)
    rng = np.random.default_rng(seed)
    steps_per_epoch = len(x) // args.batch
    total = steps_per_epoch * args.epochs
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=total, pct_start=0.15)
    t0 = time.time()
    step = 0
    for epoch in range(args.epochs):
        net.train()
        if args.freeze_bn:
            cropnet_onnx.freeze_batch_norms(net)
        perm = rng.permutation(len(x))
        run_t, run_o, acc_t, acc_o, n = 0.0, 0.0, 0, 0, 0
        for b in range(steps_per_epoch):
            idx = np.sort(perm[b * args.batch:(b + 1) * args.batch])
            codes = torch.randint(0, 8, (len(idx),), generator=gen)
            xs = x[idx] if dev.type == "cpu" else x[torch.from_numpy(idx).to(dev)]
            xb = normalise(data.augment_batch(xs, codes, gen, args.size, strength=args.augment, noise_gen=noise_gen), dev)
            yb = torch.from_numpy(y[idx]).to(dev)
            codes = codes.to(dev)
            lt, lo = net(xb.contiguous(memory_format=torch.channels_last))
            loss_t = F.cross_entropy(lt, yb)
            keep = ~special[yb]
            loss_o = F.cross_entropy(lo[keep], codes[keep]) if keep.any() else lo.sum() * 0
            loss = loss_t + loss_o
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            run_t += float(loss_t)
            run_o += float(loss_o)
            acc_t += int((lt.argmax(1) == yb).sum())
            acc_o += int((lo.argmax(1)[keep] == codes[keep]).sum())
            n += len(idx)
            if (time.time() - t0) / 60 > minutes:
                log(f"time budget of {minutes:.1f} min reached at step {step}/{total}: stopping")
                return epoch + 1, step
        log(f"epoch {epoch + 1}/{args.epochs}: loss type {run_t / steps_per_epoch:.3f} orient "
            f"{run_o / steps_per_epoch:.3f}, train acc type {acc_t / n:.3f} orient {acc_o / max(n, 1):.3f}, "
            f"{(time.time() - t0) / 60:.1f} min")
    return args.epochs, step


def eight_ways(x_lying, rot):
    """All eight orientations of each crop: returns images and their codes."""
    xs, codes, idx = [], [], []
    for i, (img, r) in enumerate(zip(x_lying, rot)):
        up = data.apply_rotation(img, int(r))
        for t in range(8):
            xs.append(np.ascontiguousarray(data.apply_rotation(up, data.inverse_rotation(t))))
            codes.append(t)
            idx.append(i)
    return np.stack(xs), np.array(codes), np.array(idx)


def reference_input(n, size):
    """A deterministic input both sides can rebuild: pixel value
    ((7*c + 31*y + 17*x + 101*i) mod 256) / 255, normalised by MEAN/STD.
    pkg/onnxrt's tests regenerate it from this formula."""
    i, c, yy, xx = np.meshgrid(np.arange(n), np.arange(3), np.arange(size), np.arange(size), indexing="ij")
    v = ((7 * c + 31 * yy + 17 * xx + 101 * i) % 256).astype(np.float32) / 255.0
    mean = np.array(MEAN, np.float32).reshape(1, 3, 1, 1)
    std = np.array(STD, np.float32).reshape(1, 3, 1, 1)
    return ((v - mean) / std).astype(np.float32)


def export(net, path, size):
    net.eval()
    dummy = torch.zeros(1, 3, size, size)
    torch.onnx.export(net, dummy, path, opset_version=13, input_names=["image"],
                      output_names=["type_logits", "orient_logits"],
                      dynamic_axes={"image": {0: "batch"}, "type_logits": {0: "batch"}, "orient_logits": {0: "batch"}},
                      do_constant_folding=True)


def b64(a):
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f4").tobytes()).decode()


def train_members(args, classes, log):
    """Loads the training crops and trains args.members networks; returns
    them with the run's record (what the manifest and checkpoint keep)."""
    t_start = time.time()
    xs, ys = [], []
    for d in args.train:
        x, y, _ = data.load_cached(d, classes, args.size, upright=True, workers=args.threads)
        xs.append(x)
        ys.append(y)
    x_tr, y_tr = np.concatenate(xs), np.concatenate(ys)
    for spec in args.oversample:
        name, k = spec.split("=")
        idx = np.flatnonzero(y_tr == classes.index(name))
        reps = np.tile(idx, int(k) - 1)
        x_tr, y_tr = np.concatenate([x_tr, x_tr[reps]]), np.concatenate([y_tr, y_tr[reps]])
        log(f"oversampled {name} x{k}: {len(idx)} -> {len(idx) * int(k)} crops")
    counts = np.bincount(y_tr, minlength=len(classes))
    log(f"train {len(x_tr)} crops (fewest per class {counts.min()} {classes[counts.argmin()]}); "
        f"loaded in {time.time() - t_start:.0f}s")
    dev = torch.device(args.device)
    x_in = x_tr if dev.type == "cpu" else torch.from_numpy(x_tr).to(dev)
    widths = tuple(int(w) for w in args.widths.split(","))
    start, init_note = None, ""
    if args.init:
        start, prior = docnet_onnx.load(args.init, classes)
        if prior["size"] != args.size:
            raise SystemExit(f"train_docnet.py: {args.init} takes {prior['size']} px inputs, not --size {args.size}")
        widths, args.extra, args.members = tuple(prior["widths"]), prior["extra"], len(start)
        diff = docnet_onnx.check_reference(start, args.init, reference_input(2, args.size))
        log(f"{len(start)} members from {args.init}" + (f", matching its reference logits within {diff:.1g}"
                                                        if diff is not None else ", no reference beside it to check"))
        init_note = f"{os.path.basename(args.init)} (trained on {prior['trained_on']})"
    members, epochs_done, steps = [], [], []
    t_train = time.time()
    for m in range(args.members):
        seed = args.seed + m
        torch.manual_seed(seed)
        if start is not None:
            net = start[m].to(dev, memory_format=torch.channels_last)
        else:
            net = DocNet(len(classes), args.size, widths=widths, extra=args.extra).to(dev, memory_format=torch.channels_last)
        params = sum(p.numel() for p in net.parameters())
        log(f"docnet {widths} extra={args.extra}: {params} parameters, input {args.size}x{args.size}; "
            f"member {m + 1} of {args.members}, seed {seed}, on {dev}")
        e, s = train(net, x_in, y_tr, classes, args, seed, args.max_minutes / args.members, log)
        members.append(net)
        epochs_done.append(e)
        steps.append(s)
    run = {"classes": classes, "size": args.size, "widths": list(widths), "extra": args.extra, "seed": args.seed,
           "epochs": epochs_done, "steps": steps, "batch": args.batch, "lr": args.lr, "threads": args.threads,
           "device": str(dev) if dev.type == "cpu" else f"{dev.type} ({torch.cuda.get_device_name(dev)})",
           "train_crops": int(len(x_tr)), "train_seconds": time.time() - t_train, "torch": torch.__version__,
           "oversample": list(args.oversample), "augment": args.augment, "init": init_note,
           "freeze_bn": args.freeze_bn}
    return members, run


def save_checkpoint(path, members, run):
    """Saves the members' weights (CPU tensors) and the run's record, with
    no NumPy object in the pickle, so any PyTorch can load it. A path with
    %d gets one file per member (a lent machine sends back files of at
    most 16 MB)."""
    states = [{k: v.detach().cpu() for k, v in m.state_dict().items()} for m in members]
    if "%d" in path:
        for i, st in enumerate(states):
            torch.save({"members": [st], "run": run}, path % (i + 1))
    else:
        torch.save({"members": states, "run": run}, path)


def load_checkpoint(args, classes, log):
    """Rebuilds the members saved by save_checkpoint (args.size and the
    network's shape come from the checkpoint)."""
    path = args.from_checkpoint
    paths = sorted(glob.glob(path.replace("%d", "*"))) if "%d" in path else [path]
    if not paths:
        raise SystemExit(f"{path}: no checkpoint")
    cks = [torch.load(p, map_location="cpu") for p in paths]
    ck = {"members": [st for c in cks for st in c["members"]], "run": cks[0]["run"]}
    run = ck["run"]
    if len(ck["members"]) != len(run["epochs"]):
        raise SystemExit(f"{path}: {len(ck['members'])} members found, the run trained {len(run['epochs'])}")
    if list(run["classes"]) != list(classes):
        raise SystemExit(f"{args.from_checkpoint}: its classes differ from pkg/doctypes")
    args.size = run["size"]
    members = []
    for state in ck["members"]:
        net = DocNet(len(classes), args.size, widths=tuple(run["widths"]), extra=run["extra"])
        net.load_state_dict(state)
        members.append(net)
    log(f"loaded {len(members)} members from {args.from_checkpoint}: trained on {run['device']} with PyTorch "
        f"{run['torch']}, {run['train_crops']} crops, input {args.size}, epochs {run['epochs']}")
    return members, run


def main():
    args = parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    log = lambda s: print(f"[docnet {time.strftime('%H:%M:%S')}] {s}", flush=True)  # noqa: E731
    classes = read_classes()
    log(f"{len(classes)} classes")
    t_start = time.time()

    if args.from_checkpoint:
        members, run = load_checkpoint(args, classes, log)
    else:
        members, run = train_members(args, classes, log)
        if args.checkpoint:
            save_checkpoint(args.checkpoint, members, run)
            log(f"saved {len(members)} members to {args.checkpoint}")
        if args.no_export:
            return
    members = [m.cpu() for m in members]
    widths = tuple(run["widths"])
    epochs_done, steps, train_s = run["epochs"], run["steps"], run["train_seconds"]
    x_va, y_va, r_va = data.load_cached(args.val, classes, args.size, upright=False, workers=args.threads)
    x_te, y_te, r_te = data.load_cached(args.test, classes, args.size, upright=False, workers=args.threads)
    log(f"val {len(x_va)}, test {len(x_te)}")
    net = members[0] if len(members) == 1 else Ensemble(members)
    params = sum(p.numel() for p in net.parameters())
    if len(members) == 1:
        epochs_done, steps = epochs_done[0], steps[0]

    # Calibration on the validation split (crops as they lie).
    special = np.array([classes[i] in ev.SPECIAL for i in y_va])
    lt, lo = predict(net, x_va)
    temp_t = ev.fit_temperature(lt, y_va, log=log)
    temp_o = ev.fit_temperature(lo[~special], r_va[~special], log=log)
    log(f"temperatures: type {temp_t:.3f}, orientation {temp_o:.3f}")
    val_t = ev.type_metrics(ev.softmax(lt, temp_t), y_va, classes, OTHER_THRESHOLD)

    # Metrics on the test split: as laid by the factory and all eight ways.
    special = np.array([classes[i] in ev.SPECIAL for i in y_te])
    lt, lo = predict(net, x_te)
    test_t = ev.type_metrics(ev.softmax(lt, temp_t), y_te, classes, OTHER_THRESHOLD)
    test_o = ev.orient_metrics(ev.softmax(lo[~special], temp_o), r_te[~special])
    x8, c8, i8 = eight_ways(x_te[~special], r_te[~special])
    lt8, lo8 = predict(net, x8)
    test_o8 = ev.orient_metrics(ev.softmax(lo8, temp_o), c8)
    test_t8 = ev.type_metrics(ev.softmax(lt8, temp_t), y_te[~special][i8], classes, OTHER_THRESHOLD)
    for k, v in [("val type", val_t), ("test type", test_t), ("test orient", test_o),
                 ("test orient 8-way", test_o8), ("test type 8-way", test_t8)]:
        log(f"{k}: {json.dumps(v)}")

    os.makedirs(args.out, exist_ok=True)
    onnx_path = os.path.join(args.out, f"{args.name}.onnx")
    export(net, onnx_path, args.size)
    ref_in = reference_input(2, args.size)
    with torch.no_grad():
        rt, ro = net(torch.from_numpy(ref_in))
    ref = {"model": f"{args.name}.onnx", "input": "formula", "batch": 2, "size": args.size,
           "type_logits": b64(rt.numpy()), "orient_logits": b64(ro.numpy())}
    with open(os.path.join(args.out, f"{args.name}.reference.json"), "w") as f:
        json.dump(ref, f, indent=1)
        f.write("\n")

    summary = lambda m: {k: (round(v, 5) if isinstance(v, float) else v)  # noqa: E731
                         for k, v in m.items() if k not in ("worst_recall", "top_confusions", "per_code")}
    entry = {
        "name": args.name,
        "file": f"{args.name}.onnx",
        "sha256": sha256(onnx_path),
        "bytes": os.path.getsize(onnx_path),
        "input": {"name": "image", "layout": "NCHW", "color": "RGB", "height": args.size, "width": args.size,
                  "resize": "squash: stretched to height x width ignoring aspect, antialiased bilinear",
                  "scale": 1 / 255, "mean": list(MEAN), "std": list(STD)},
        "heads": [
            {"output": "type_logits", "classes": classes, "temperature": round(temp_t, 5)},
            {"output": "orient_logits", "classes": [str(i) for i in range(8)], "temperature": round(temp_o, 5)},
        ],
        "other_threshold": OTHER_THRESHOLD,
        "training": {
            "seed": run["seed"], "script": "scripts/train_docnet.py", "epochs": epochs_done, "steps": steps,
            "batch": run["batch"], "lr": run["lr"], "threads": run["threads"], "device": run["device"],
            "train_crops": run["train_crops"],
            "val_crops": int(len(x_va)), "test_crops": int(len(x_te)), "parameters": int(params),
            "widths": list(widths), "extra": run["extra"], "members": len(members), "train_seconds": round(train_s),
            "torch": run["torch"], "data": args.data_note, "oversample": run["oversample"],
            "augment": run.get("augment", 1.0), "init": run.get("init", ""),
            "freeze_bn": run.get("freeze_bn", False),
        },
        "metrics": {
            "split": "test (synthetic, held out; crops as laid by the factory)",
            "type": summary(test_t), "orientation": summary(test_o),
            "orientation_8way": summary(test_o8), "type_8way": summary(test_t8),
            "val_type": summary(val_t),
        },
        "made": "scripts/models.sh: synthetic crops from tools/synth, trained by scripts/train_docnet.py "
                f"(PyTorch {run['torch']}, {run['device']}), temperature-scaled on the val split, exported with "
                f"torch.onnx opset 13 (PyTorch {torch.__version__})",
    }
    write_manifest(args.out, entry)
    log(f"wrote {onnx_path} ({entry['bytes']} bytes) and manifest; total {(time.time() - t_start) / 60:.1f} min")


if __name__ == "__main__":
    main()
