"""Loads an exported docnet (models/docnet.onnx, one graph holding the mean
of several members) back into PyTorch DocNets, so that a run can fine-tune
the committed networks where no checkpoint of them is kept.

The convolutions are read as cropnet_onnx.py reads cropnet's (each batch
norm was folded into the convolution before it at export; loaded, it
becomes the identity plus the folded bias, and a fine-tuning run keeps the
batch norms in evaluation mode: train_docnet.py --freeze-bn). The heads'
linear layers keep their names in the graph (members.N.type_head.1.weight)
and are copied by name. The network's shape (widths, extra blocks,
members, input size) comes from the manifest beside the graph.
"""

import base64
import json
import os

import numpy as np
import torch

import cropnet_onnx
from train_docnet_model import DocNet, Ensemble


def _manifest_entry(onnx_path):
    path = os.path.join(os.path.dirname(onnx_path), "manifest.json")
    if not os.path.exists(path):
        raise ValueError(f"{onnx_path}: no manifest.json beside it to say the network's shape")
    with open(path) as f:
        manifest = json.load(f)
    for m in manifest.get("models", []):
        if m.get("file") == os.path.basename(onnx_path):
            return m
    raise ValueError(f"{path}: no entry for {os.path.basename(onnx_path)}")


def load(onnx_path, classes):
    """Returns (members, run): the DocNets of the graph at onnx_path, on the
    CPU, and the run's record as train_docnet.py keeps it (shape, size and
    the training history from the manifest). Raises ValueError when the
    graph, the manifest and classes disagree."""
    import onnx  # Debian's python3-onnx; needed only here
    from onnx import numpy_helper

    entry = _manifest_entry(onnx_path)
    heads = {h["output"]: h for h in entry.get("heads", [])}
    if heads.get("type_logits", {}).get("classes") != list(classes):
        raise ValueError(f"{onnx_path}: its type classes differ from pkg/doctypes")
    tr = entry["training"]
    size, widths, extra = entry["input"]["height"], tuple(tr["widths"]), tr["extra"]
    members = [DocNet(len(classes), size, widths=widths, extra=extra) for _ in range(tr.get("members", 1))]
    net = Ensemble(members) if len(members) > 1 else members[0]
    cropnet_onnx.load(net, onnx_path, size)
    model = onnx.load(onnx_path)
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    params = dict(net.named_parameters())
    linear = [n for n, p in params.items() if p.dim() == 2]
    with torch.no_grad():
        for name in linear + [n[:-len("weight")] + "bias" for n in linear]:
            if name not in inits:
                raise ValueError(f"{onnx_path}: no initializer {name}")
            if tuple(inits[name].shape) != tuple(params[name].shape):
                raise ValueError(f"{onnx_path}: {name} is {inits[name].shape}, the network's {tuple(params[name].shape)}")
            params[name].copy_(torch.from_numpy(inits[name].copy()))
    net.eval()
    # Older manifests name the device only in their "made" line.
    device = tr.get("device") or ("cpu" if "CPU" in entry.get("made", "") else "?")
    run = {"classes": list(classes), "size": size, "widths": list(widths), "extra": extra,
           "seed": tr.get("seed", 1), "trained_on": f"{device}, {tr.get('train_crops', '?')} crops"}
    return members, run


def check_reference(members, onnx_path, ref_input):
    """Compares the members' mean logits on ref_input with the reference
    recorded at the graph's export (<name>.reference.json beside it);
    returns the largest difference, or None where no reference is kept.
    Raises ValueError above 1e-3 (the logits run to tens)."""
    ref_path = os.path.splitext(onnx_path)[0] + ".reference.json"
    if not os.path.exists(ref_path):
        return None
    with open(ref_path) as f:
        ref = json.load(f)
    net = Ensemble(members) if len(members) > 1 else members[0]
    was_training = net.training
    net.eval()
    with torch.no_grad():
        got = net(torch.from_numpy(ref_input))
    net.train(was_training)
    diff = 0.0
    for out, key in zip(got, ("type_logits", "orient_logits")):
        want = np.frombuffer(base64.b64decode(ref[key]), "<f4")
        g = out.cpu().numpy().reshape(-1)
        diff = max(diff, float(np.abs(g - want).max()) if g.shape == want.shape else float("inf"))
    if diff > 1e-3:
        raise ValueError(f"{onnx_path}: loaded networks differ from {ref_path} by {diff:.2g}")
    return diff
