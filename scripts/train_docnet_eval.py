"""Calibration and metrics for scripts/train_docnet.py: temperature scaling,
expected calibration error, accuracy per class and family, and the rule
that turns a poorly fitting document into `other`."""

import re

import numpy as np
import torch
import torch.nn.functional as F

SPECIAL = ("other", "not_document", "empty")


def family(t):
    """Mirrors doctypes.Family: drops year and side/main variant parts."""
    parts = [p for p in t.split("_") if not re.fullmatch(r"\d{4}", p) and p not in ("front", "back", "main")]
    return "_".join(parts)


def fit_temperature(logits, labels, steps=200, log=print):
    """Finds T > 0 minimising the NLL of softmax(logits / T) on a held-out
    split (Guo et al. 2017, temperature scaling).

    When every row's largest logit is its label's (the split is separated),
    the NLL has no minimum: it falls on as T goes to 0, and the fit would
    export a head whose probabilities are hard 0 or 1. Then T is instead
    the one whose mean top probability equals the add-one estimate of the
    accuracy, (n + 1) / (n + 2), and a warning says so."""
    z = torch.as_tensor(logits, dtype=torch.float64)
    y = torch.as_tensor(labels, dtype=torch.int64)
    if len(y) and bool((z.argmax(dim=1) == y).all()):
        n = len(y)
        target = (n + 1) / (n + 2)
        t = confidence_temperature(z, target)
        log(f"temperature: all {n} rows right, the NLL has no minimum; T {t:.4f} "
            f"gives a mean confidence of {target:.4f}, the add-one estimate of the accuracy")
        return t
    log_t = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([log_t], lr=0.1, max_iter=steps, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = F.cross_entropy(z / log_t.exp(), y)
        loss.backward()
        return loss

    opt.step(closure)
    return float(log_t.exp().item())


def confidence_temperature(z, target, lo=1e-4, hi=1e4):
    """Finds T by bisection (in log T) such that the mean top softmax
    probability of z / T equals target; that mean falls as T grows."""

    def mean_top(t):
        return float(F.softmax(z / t, dim=1).max(dim=1).values.mean())

    a, b = np.log(lo), np.log(hi)
    for _ in range(100):
        m = (a + b) / 2
        if mean_top(np.exp(m)) > target:
            a = m
        else:
            b = m
    return float(np.exp((a + b) / 2))


def softmax(logits, t=1.0):
    z = np.asarray(logits, dtype=np.float64) / t
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def ece(conf, correct, bins=15):
    """Expected calibration error with equal-width confidence bins."""
    conf = np.asarray(conf, dtype=np.float64)
    correct = np.asarray(correct, dtype=np.float64)
    edges = np.linspace(0.0, 1.0, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            total += m.mean() * abs(conf[m].mean() - correct[m].mean())
    return float(total)


def decide(probs, classes, threshold):
    """The Go decision rule (pkg/classify) without a doc_type restriction:
    the most probable class, replaced by `other` when it is a document type
    whose calibrated probability is below threshold. Returns (index,
    confidence) arrays."""
    other = classes.index("other")
    special = np.array([c in SPECIAL for c in classes])
    idx = probs.argmax(axis=1)
    conf = probs[np.arange(len(idx)), idx]
    weak = (~special[idx]) & (conf < threshold)
    idx = np.where(weak, other, idx)
    conf = np.where(weak, 1.0 - conf, conf)
    return idx, conf


def type_metrics(probs, labels, classes, threshold):
    """Top-1 (raw argmax and after the `other` rule), family-level top-1,
    ECE and NLL of the decided answer, worst classes by recall."""
    labels = np.asarray(labels)
    raw = probs.argmax(axis=1)
    idx, conf = decide(probs, classes, threshold)
    correct = idx == labels
    fam = np.array([family(classes[i]) == family(classes[j]) for i, j in zip(idx, labels)])
    nll = float(-np.log(np.clip(probs[np.arange(len(labels)), labels], 1e-12, None)).mean())
    recall = {}
    for c in np.unique(labels):
        m = labels == c
        recall[classes[c]] = float(correct[m].mean())
    worst = sorted(recall.items(), key=lambda kv: kv[1])[:10]
    confusions = {}
    for i, j in zip(idx[~correct], labels[~correct]):
        key = f"{classes[j]} -> {classes[i]}"
        confusions[key] = confusions.get(key, 0) + 1
    top_conf = sorted(confusions.items(), key=lambda kv: -kv[1])[:15]
    return {
        "n": int(len(labels)),
        "top1": float(correct.mean()),
        "top1_argmax": float((raw == labels).mean()),
        "top1_family": float(fam.mean()),
        "ece": ece(conf, correct),
        "nll": nll,
        "rejected_to_other": float(((idx != raw) & (labels != classes.index("other"))).mean()),
        "worst_recall": worst,
        "top_confusions": top_conf,
    }


def orient_metrics(probs, labels):
    """Orientation accuracy and ECE."""
    pred = probs.argmax(axis=1)
    conf = probs.max(axis=1)
    correct = pred == np.asarray(labels)
    per_code = {int(c): float(correct[np.asarray(labels) == c].mean()) for c in np.unique(labels)}
    return {"n": int(len(pred)), "accuracy": float(correct.mean()), "ece": ece(conf, correct), "per_code": per_code}
