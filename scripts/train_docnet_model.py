"""The docnet network: one small convolutional backbone with two heads, the
document type (97 classes) and the orientation code (8 classes).

Plain 3x3 convolutions with batch norm and ReLU (fast to train on two CPU
cores and fast to run in ONNX Runtime on one), downsampling by stride 2 five
times. The type head pools globally (the type does not depend on where a
feature is); the orientation head keeps the coarse layout (where the photo,
the title and the text lines are) by flattening a 1x1-reduced final map.
"""

import torch
import torch.nn as nn


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DocNet(nn.Module):
    """Backbone plus type and orientation heads; returns raw logits."""

    def __init__(self, num_types, size, widths=(24, 48, 96, 160, 256), extra=1, orient_ch=32):
        super().__init__()
        layers = [conv_bn(3, widths[0], 2), conv_bn(widths[0], widths[1], 2)]
        layers += [conv_bn(widths[1], widths[1]) for _ in range(extra)]
        for cin, cout in zip(widths[1:-1], widths[2:]):
            layers.append(conv_bn(cin, cout, 2))
            layers += [conv_bn(cout, cout) for _ in range(extra)]
        self.features = nn.Sequential(*layers)
        final = size // 32
        self.type_head = nn.Sequential(nn.Dropout(0.1), nn.Linear(widths[-1], num_types))
        self.orient_head = nn.Sequential(
            nn.Conv2d(widths[-1], orient_ch, 1, bias=False),
            nn.BatchNorm2d(orient_ch),
            nn.ReLU(inplace=True),
            nn.Flatten(),
            nn.Linear(orient_ch * final * final, 8),
        )

    def forward(self, x):
        f = self.features(x)
        return self.type_head(f.mean(dim=(2, 3))), self.orient_head(f)


class Normalised(nn.Module):
    """Wraps a network so it takes inputs in [0, 1] (training side only:
    the exported graph expects inputs already normalised by the caller)."""

    def __init__(self, net, mean, std):
        super().__init__()
        self.net = net
        self.register_buffer("mean", torch.tensor(mean).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor(std).view(1, 3, 1, 1))

    def forward(self, x):
        return self.net((x - self.mean) / self.std)


class Ensemble(nn.Module):
    """Several DocNets trained alike from different seeds, exported as one
    graph: each head's logits are the members' mean. One draw of a training
    run moves a dozen real answers either way; the mean of a few is steadier
    and no less calibrated (the temperatures are fitted on the mean)."""

    def __init__(self, members):
        super().__init__()
        self.members = nn.ModuleList(members)

    def forward(self, x):
        outs = [m(x) for m in self.members]
        t = torch.stack([o[0] for o in outs]).mean(dim=0)
        o = torch.stack([o[1] for o in outs]).mean(dim=0)
        return t, o
