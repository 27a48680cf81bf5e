package fraud

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
)

//go:embed calibration.json
var calibrationJSON []byte

// Logistic maps a detector statistic s to a probability 1/(1+exp(-(A+B*s))).
type Logistic struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

// Calibration holds one logistic function per sign type, fitted by
// tools/tamper on the synthetic tampering set.
type Calibration struct {
	// Source says how the functions were fitted.
	Source string              `json:"source"`
	Signs  map[string]Logistic `json:"signs"`
}

// DefaultCalibration is the calibration shipped with the package
// (calibration.json).
func DefaultCalibration() (Calibration, error) {
	var c Calibration
	if err := json.Unmarshal(calibrationJSON, &c); err != nil {
		return Calibration{}, fmt.Errorf("fraud: calibration.json: %w", err)
	}
	for _, t := range SignTypes {
		if _, ok := c.Signs[t]; !ok {
			return Calibration{}, fmt.Errorf("fraud: calibration.json has no function for %s", t)
		}
	}
	return c, nil
}

// Confidence is the calibrated probability of a sign of type t with
// statistic s, rounded to four decimals.
func (c Calibration) Confidence(t string, s float64) float64 {
	l, ok := c.Signs[t]
	if !ok {
		return 0
	}
	p := 1 / (1 + math.Exp(-(l.A + l.B*s)))
	return math.Round(p*10000) / 10000
}

// FitLogistic fits a logistic function to statistics xs with labels ys
// (true: the sign marks a real tampering) by Newton's method on the
// log-likelihood with a small ridge penalty, so that a set where every
// sign is real still gives finite coefficients.
func FitLogistic(xs []float64, ys []bool) Logistic {
	a, b := 0.0, 0.0
	const ridge = 0.1
	for it := 0; it < 100; it++ {
		var ga, gb, haa, hab, hbb float64
		for i, x := range xs {
			p := 1 / (1 + math.Exp(-(a + b*x)))
			y := 0.0
			if ys[i] {
				y = 1
			}
			ga += y - p
			gb += (y - p) * x
			w := p * (1 - p)
			haa += w
			hab += w * x
			hbb += w * x * x
		}
		ga -= ridge * a
		gb -= ridge * b
		haa += ridge
		hbb += ridge
		det := haa*hbb - hab*hab
		if det <= 1e-12 {
			break
		}
		da := (hbb*ga - hab*gb) / det
		db := (haa*gb - hab*ga) / det
		a += da
		b += db
		if math.Abs(da)+math.Abs(db) < 1e-9 {
			break
		}
	}
	return Logistic{A: a, B: b}
}
