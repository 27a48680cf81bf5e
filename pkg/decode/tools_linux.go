package decode

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill cmd's process when the thread that
// started it ends, as it does when this process is killed: a poppler or
// djvulibre tool rendering a large page otherwise ran on, orphaned, for up
// to its CPU limit (toolTimeout) and its memory (memoryFor) after an
// all-in-one or worker outside a container was killed (by the OOM killer,
// or kill -9). The Go runtime ends a thread only when a goroutine locked to
// it exits, and none that starts a tool is.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
