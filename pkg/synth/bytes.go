package synth

import "unsafe"

// f32bytes views a float32 slice as bytes (for wrapping in a Mat).
func f32bytes(f []float32) []byte {
	if len(f) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&f[0])), len(f)*4)
}
