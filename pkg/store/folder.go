package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Folder stores objects as files under a root directory. Writes go to a
// temporary file renamed into place, so readers never see half an object.
type Folder struct {
	root string
	// dirs orders making folders against pruning them in this process:
	// a Put makes its folder and its temporary file under the read lock,
	// a Delete prunes emptied folders under the write lock (createTemp).
	dirs sync.RWMutex
}

// NewFolder creates the root directory if needed and returns the store.
func NewFolder(root string) (*Folder, error) {
	if err := os.MkdirAll(root, 0o750); err != nil {
		return nil, fmt.Errorf("store: create folder %s: %w", root, err)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("store: folder %s: %w", root, err)
	}
	f := &Folder{root: abs}
	f.removePartial(time.Now().Add(-partialAge))
	return f, nil
}

// partialAge is how old a Put's temporary file must be for NewFolder to
// take it for one a killed process left: a Put writes one object of at
// most a page's pixels, in well under a minute.
const partialAge = time.Hour

// removePartial removes the temporary files of Puts (".put-*", which List
// does not show, so DeleteOlder never sees them) last modified before
// cutoff, and returns how many it removed and their bytes: a process killed
// in the middle of a Put leaves one for good. A Put under way writes to its
// file all the time, so its modification time stays recent.
func (f *Folder) removePartial(cutoff time.Time) (n int, size int64) {
	var dirs []string
	_ = filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), ".put-") {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().Before(cutoff) && os.Remove(p) == nil {
			n++
			size += info.Size()
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	for _, dir := range dirs {
		f.pruneEmpty(dir)
	}
	return n, size
}

func (f *Folder) path(key string) (string, error) {
	clean := filepath.Clean("/" + key)
	if key == "" || strings.Contains(key, "..") || clean == "/" {
		return "", fmt.Errorf("store: invalid key %q", key)
	}
	return filepath.Join(f.root, clean), nil
}

// Put implements Store.
func (f *Folder) Put(ctx context.Context, key string, data []byte) error {
	return f.PutReader(ctx, key, bytes.NewReader(data), int64(len(data)))
}

// PutReader implements Store: the object is written to a temporary file
// and renamed into place, so a reader never sees half of it.
func (f *Folder) PutReader(ctx context.Context, key string, r io.Reader, size int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p, err := f.path(key)
	if err != nil {
		return err
	}
	tmp, err := f.createTemp(filepath.Dir(p))
	if err != nil {
		return fmt.Errorf("store: put %s: %w", key, err)
	}
	n, werr := io.Copy(tmp, r)
	if werr == nil && n != size {
		werr = fmt.Errorf("%d bytes read, %d announced", n, size)
	}
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("store: put %s: %w", key, errors.Join(werr, cerr))
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("store: put %s: %w", key, err)
	}
	return nil
}

// mkdirTries is how many times createTemp makes its folder and the file
// in it before giving up.
const mkdirTries = 10

// createTemp makes dir and a temporary file in it. A Delete beside it
// prunes the folders it empties (pruneEmpty), which could remove dir, or a
// parent MkdirAll has just found or made, before the file is in it: in
// this process the lock keeps pruning out until the file is there (then
// dir is not empty and is not pruned); another process sharing the folder
// can still race, and the folder is then made again.
func (f *Folder) createTemp(dir string) (*os.File, error) {
	f.dirs.RLock()
	defer f.dirs.RUnlock()
	// MkdirAll racing a prune answers ENOENT (a parent went) or EEXIST
	// (a folder it saw went before it could tell it was one).
	raced := func(err error) bool { return errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) }
	var err error
	for range mkdirTries {
		if err = os.MkdirAll(dir, 0o750); err != nil && !raced(err) {
			return nil, err
		}
		if err == nil {
			var tmp *os.File
			if tmp, err = os.CreateTemp(dir, ".put-*"); err == nil || !errors.Is(err, fs.ErrNotExist) {
				return tmp, err
			}
		}
	}
	return nil, err
}

// Get implements Store.
func (f *Folder) Get(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := f.path(key)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("store: get %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("store: get %s: %w", key, err)
	}
	return b, nil
}

// Delete implements Store.
func (f *Folder) Delete(_ context.Context, key string) error {
	p, err := f.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store: delete %s: %w", key, err)
	}
	f.pruneEmpty(filepath.Dir(p))
	return nil
}

// pruneEmpty removes empty directories up to the root.
func (f *Folder) pruneEmpty(dir string) {
	f.dirs.Lock()
	defer f.dirs.Unlock()
	for dir != f.root && strings.HasPrefix(dir, f.root) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// DeletePrefix implements Store.
func (f *Folder) DeletePrefix(ctx context.Context, prefix string) error {
	var keys []string
	if err := f.List(ctx, prefix, func(o Object) bool { keys = append(keys, o.Key); return true }); err != nil {
		return err
	}
	for _, k := range keys {
		if err := f.Delete(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// List implements Store. Objects are visited in lexical key order.
func (f *Folder) List(ctx context.Context, prefix string, fn func(Object) bool) error {
	stop := errors.New("stop")
	err := filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), ".put-") {
			return nil
		}
		key := filepath.ToSlash(strings.TrimPrefix(p, f.root+string(filepath.Separator)))
		if !strings.HasPrefix(key, prefix) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		if !fn(Object{Key: key, Size: info.Size(), Modified: info.ModTime()}) {
			return stop
		}
		return nil
	})
	if err != nil && !errors.Is(err, stop) {
		return fmt.Errorf("store: list %s: %w", prefix, err)
	}
	return nil
}

// Ping implements Store.
func (f *Folder) Ping(context.Context) error {
	if _, err := os.Stat(f.root); err != nil {
		return fmt.Errorf("store: folder %s: %w", f.root, err)
	}
	return nil
}
