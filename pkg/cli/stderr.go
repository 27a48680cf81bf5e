package cli

import (
	"os"
	"syscall"
)

// logStream returns the stream a role logs to: a duplicate of the
// process's stderr made at start. Native libraries point descriptor 2
// elsewhere for a while (gosseract at /dev/null while Tesseract loads its
// languages, see pkg/ocr); a line written through the duplicate still
// reaches the container's log, where one written to descriptor 2 at that
// moment is lost. When no duplicate can be made, stderr itself.
func logStream() *os.File {
	syscall.ForkLock.RLock() // no child may inherit the duplicate before it is marked
	fd, err := syscall.Dup(2)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return os.Stderr
	}
	return os.NewFile(uintptr(fd), "stderr")
}
