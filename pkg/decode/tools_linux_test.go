package decode

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestToolDiesWithItsProcess: a tool running for a request ends when the
// process that started it is killed outright (kill -9, the OOM killer),
// instead of running on orphaned for up to its CPU limit. The test runs
// itself as a child that starts a long tool (sleep), kills the child and
// watches the tool.
func TestToolDiesWithItsProcess(t *testing.T) {
	if os.Getenv("DECODE_TOOL_CHILD") == "1" {
		fmt.Println("started")
		_ = streamTool(context.Background(), 1<<30, 1<<20, func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }, "sleep", "60")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestToolDiesWithItsProcess$")
	cmd.Env = append(os.Environ(), "DECODE_TOOL_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(out).ReadString('\n'); !strings.HasPrefix(line, "started") {
		t.Fatalf("child said %q", line)
	}
	var tool int
	for deadline := time.Now().Add(10 * time.Second); tool == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		tool = childNamed(cmd.Process.Pid, "sleep")
	}
	if tool == 0 {
		t.Fatal("the child's tool did not start")
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !running(tool) {
			return
		}
	}
	_ = syscall.Kill(tool, syscall.SIGKILL)
	t.Fatalf("the tool (pid %d) still runs 5 s after the process that started it was killed", tool)
}

// childNamed is the pid of a child of parent whose command is name, or 0.
func childNamed(parent int, name string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		if strings.TrimSpace(string(comm)) == name && ppid(pid) == parent {
			return pid
		}
	}
	return 0
}

// ppid is pid's parent, from /proc/PID/stat (0 when it is gone).
func ppid(pid int) int {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	n, _ := strconv.Atoi(f[1])
	return n
}

// running reports whether pid is alive: present and not a zombie (an
// orphan killed is reaped by whoever adopted it, maybe not at once).
func running(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return f[0] != "Z"
}
