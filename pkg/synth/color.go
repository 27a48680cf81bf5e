package synth

import (
	"image/color"
	"math"
	"strconv"
	"strings"
)

// parseColor reads "#rrggbb" or "#rrggbbaa"; anything else is dark ink.
func parseColor(s string) color.RGBA {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(s) != 6 && len(s) != 8 {
		return color.RGBA{30, 30, 35, 255}
	}
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return color.RGBA{30, 30, 35, 255}
	}
	if len(s) == 6 {
		return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
	}
	return color.RGBA{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}
}

// colorOr parses s, or returns def when s is empty.
func colorOr(s string, def color.RGBA) color.RGBA {
	if s == "" {
		return def
	}
	return parseColor(s)
}

// withAlpha returns c with alpha a in [0, 1].
func withAlpha(c color.RGBA, a float64) color.RGBA {
	c.A = uint8(clamp(a, 0, 1) * 255)
	return c
}

// mix blends a and b: t = 0 gives a.
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(clamp(float64(x)+(float64(y)-float64(x))*t, 0, 255)) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), f(a.A, b.A)}
}

// hueShift rotates the hue of c by deg degrees and scales saturation.
func hueShift(c color.RGBA, deg, sat float64) color.RGBA {
	r, g, b := float64(c.R)/255, float64(c.G)/255, float64(c.B)/255
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	l := (mx + mn) / 2
	var h, s float64
	if mx != mn {
		d := mx - mn
		if l > 0.5 {
			s = d / (2 - mx - mn)
		} else {
			s = d / (mx + mn)
		}
		switch mx {
		case r:
			h = (g - b) / d
			if g < b {
				h += 6
			}
		case g:
			h = (b-r)/d + 2
		default:
			h = (r-g)/d + 4
		}
		h *= 60
	}
	h = math.Mod(h+deg+360, 360)
	s = clamp(s*sat, 0, 1)
	return hsl(h, s, l, c.A)
}

// hsl converts hue (degrees), saturation and lightness to RGBA.
func hsl(h, s, l float64, a uint8) color.RGBA {
	q := l * (1 + s)
	if l >= 0.5 {
		q = l + s - l*s
	}
	p := 2*l - q
	f := func(t float64) uint8 {
		t = math.Mod(t+1, 1)
		var v float64
		switch {
		case t < 1.0/6:
			v = p + (q-p)*6*t
		case t < 0.5:
			v = q
		case t < 2.0/3:
			v = p + (q-p)*(2.0/3-t)*6
		default:
			v = p
		}
		return uint8(clamp(v*255+0.5, 0, 255))
	}
	hh := h / 360
	return color.RGBA{f(hh + 1.0/3), f(hh), f(hh - 1.0/3), a}
}
