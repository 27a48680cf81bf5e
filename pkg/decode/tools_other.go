//go:build !linux

package decode

import "os/exec"

// dieWithParent does nothing where the kernel offers no parent-death
// signal; the tools' CPU limit still ends them.
func dieWithParent(*exec.Cmd) {}
