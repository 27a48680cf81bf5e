"""The cropnet network: a small depthwise-separable U-Net that maps a page,
letterboxed to 256 x 256, to two per-pixel maps at the same resolution:

  interior  the pixel lies on a document (any document, hidden parts of an
            overlapped one included)
  boundary  the pixel lies on a visible document outline (a band about
            3 px wide), so that touching and overlapping documents split
            into separate components of interior minus boundary.

The encoder halves the resolution four times (256 -> 16) with dilated blocks
at the bottom for page-wide context; the decoder upsamples bilinearly and
adds the encoder's skip features. The exported graph ends in a sigmoid, so
ONNX Runtime returns probabilities.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn(cin, cout, k=3, stride=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DS(nn.Module):
    """Depthwise 3x3 (optionally strided or dilated) then pointwise 1x1,
    each with batch norm and ReLU; a residual when the shape allows."""

    def __init__(self, cin, cout, stride=1, dilation=1):
        super().__init__()
        self.dw = nn.Sequential(
            nn.Conv2d(cin, cin, 3, stride, dilation, dilation=dilation, groups=cin, bias=False),
            nn.BatchNorm2d(cin),
            nn.ReLU(inplace=True),
        )
        self.pw = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = self.pw(self.dw(x))
        if self.residual:
            y = y + x
        return F.relu(y)


class CropNet(nn.Module):
    """Encoder widths w0..w4 at strides 2, 4, 8, 16, 32... of the input."""

    def __init__(self, widths=(16, 32, 64, 128, 192), full=8):
        super().__init__()
        w0, w1, w2, w3, w4 = widths
        self.full = conv_bn(3, full)  # 1/1, cheap edge features
        self.stem = conv_bn(3, w0, stride=2)  # 1/2
        self.enc1 = nn.Sequential(DS(w0, w1, 2), DS(w1, w1))  # 1/4
        self.enc2 = nn.Sequential(DS(w1, w2, 2), DS(w2, w2))  # 1/8
        self.enc3 = nn.Sequential(DS(w2, w3, 2), DS(w3, w3))  # 1/16
        self.enc4 = nn.Sequential(DS(w3, w4, 2), DS(w4, w4, dilation=2), DS(w4, w4, dilation=4))  # 1/32
        self.lat3 = conv_bn(w4, w3, k=1)
        self.dec3 = DS(w3, w3)
        self.lat2 = conv_bn(w3, w2, k=1)
        self.dec2 = DS(w2, w2)
        self.lat1 = conv_bn(w2, w1, k=1)
        self.dec1 = DS(w1, w1)
        self.lat0 = conv_bn(w1, w0, k=1)
        self.dec0 = DS(w0, w0)
        self.lat_full = conv_bn(w0, full, k=1)
        self.dec_full = DS(full, full)
        self.head = nn.Conv2d(full, 2, 1)

    @staticmethod
    def up(x, like):
        return F.interpolate(x, size=like.shape[-2:], mode="bilinear", align_corners=False)

    def logits(self, x):
        f = self.full(x)
        s0 = self.stem(x)
        s1 = self.enc1(s0)
        s2 = self.enc2(s1)
        s3 = self.enc3(s2)
        s4 = self.enc4(s3)
        d = self.dec3(self.up(self.lat3(s4), s3) + s3)
        d = self.dec2(self.up(self.lat2(d), s2) + s2)
        d = self.dec1(self.up(self.lat1(d), s1) + s1)
        d = self.dec0(self.up(self.lat0(d), s0) + s0)
        d = self.dec_full(self.up(self.lat_full(d), f) + f)
        return self.head(d)

    def forward(self, x):
        return torch.sigmoid(self.logits(x))
