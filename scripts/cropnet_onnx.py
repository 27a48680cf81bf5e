"""Loads an exported cropnet (models/cropnet.onnx) back into the PyTorch
CropNet, so that a run can fine-tune the committed network where no
checkpoint of it is kept (the committed one was trained on a lent GPU).

The export folded every batch norm into the convolution before it: the
graph holds one weight and one bias per convolution. Loaded here, each
convolution takes the folded weight and its batch norm becomes the
identity plus the folded bias (weight 1, running mean 0, running variance
1 - eps), so the network computes what the graph does. A fine-tuning run
must then keep the batch norms in evaluation mode (train_cropnet.py
--freeze-bn): batch statistics would replace that identity.
"""

import base64
import json
import os

import numpy as np
import torch
import torch.nn as nn


def _conv_bn_pairs(net):
    """Each convolution of net with the batch norm that follows it in its
    Sequential (None for the head, which has its own bias)."""
    follower = {}
    for mod in net.modules():
        if isinstance(mod, nn.Sequential):
            kids = list(mod)
            for a, b in zip(kids, kids[1:]):
                if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                    follower[a] = b
    return follower


def _conv_order(net, size):
    """The convolutions in the order a forward pass runs them (the order
    of the exported graph's Conv nodes)."""
    order, hooks = [], []
    for mod in net.modules():
        if isinstance(mod, nn.Conv2d):
            hooks.append(mod.register_forward_hook(lambda m, i, o: order.append(m)))
    with torch.no_grad():
        net.eval()
        net(torch.zeros(1, 3, size, size))
    for h in hooks:
        h.remove()
    return order


def load(net, path, size):
    """Copies the folded weights of the ONNX graph at path into net (a
    CropNet of the same widths); raises ValueError when the graphs differ."""
    import onnx  # Debian's python3-onnx; needed only here
    from onnx import numpy_helper

    model = onnx.load(path)
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    nodes = [n for n in model.graph.node if n.op_type == "Conv"]
    convs = _conv_order(net, size)
    if len(nodes) != len(convs):
        raise ValueError(f"{path}: {len(nodes)} convolutions, the network has {len(convs)}")
    follower = _conv_bn_pairs(net)
    with torch.no_grad():
        for node, conv in zip(nodes, convs):
            w = inits[node.input[1]]
            b = inits[node.input[2]] if len(node.input) > 2 else np.zeros(w.shape[0], np.float32)
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: {node.name} has weights {w.shape}, the network {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(w.copy()))
            bn = follower.get(conv)
            if bn is None:
                if conv.bias is None:
                    raise ValueError(f"{path}: {node.name} has a bias and no batch norm to carry it")
                conv.bias.copy_(torch.from_numpy(b.copy()))
                continue
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b.copy()))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
    return net


def freeze_batch_norms(net):
    """Puts every batch norm of net in evaluation mode (call after each
    net.train())."""
    for mod in net.modules():
        if isinstance(mod, nn.BatchNorm2d):
            mod.eval()


def check_reference(net, onnx_path, ref_input):
    """Compares net's output on ref_input with the reference recorded at
    the graph's export (<name>.reference.json beside it: every 97th value);
    returns the largest difference, or None where no reference is kept.
    Raises ValueError above 1e-4: the weights were not read right."""
    ref_path = os.path.splitext(onnx_path)[0] + ".reference.json"
    if not os.path.exists(ref_path):
        return None
    with open(ref_path) as f:
        ref = json.load(f)
    want = np.frombuffer(base64.b64decode(ref["masks"]), "<f4")
    was_training = net.training
    net.eval()
    with torch.no_grad():
        got = net(torch.from_numpy(ref_input)).cpu().numpy().reshape(-1)[::ref["stride"]]
    net.train(was_training)
    diff = float(np.abs(got - want).max()) if got.shape == want.shape else float("inf")
    if diff > 1e-4:
        raise ValueError(f"{onnx_path}: loaded network differs from {ref_path} by {diff:.2g}")
    return diff


def trained_on(onnx_path):
    """What the manifest beside the graph says it was trained on ("" when
    it names no such model)."""
    path = os.path.join(os.path.dirname(onnx_path), "manifest.json")
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        manifest = json.load(f)
    for m in manifest.get("models", []):
        if m.get("file") == os.path.basename(onnx_path):
            return m.get("training", {}).get("trained_on", "")
    return ""
