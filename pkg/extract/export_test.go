package extract

import "time"

// SetNow makes x read passports as on the day now gives (tests only).
func (x *Extractor) SetNow(now func() time.Time) { x.now = now }
