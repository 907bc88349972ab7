package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Check reports why path cannot be written as an output file, or nil: it must not be a directory, and its
// directory must exist and take new files, or be creatable under the nearest directory that exists and does.
// It creates nothing that stays.
func Check(path string) error {
	if path == "" {
		return errors.New("empty file name")
	}
	if st, err := os.Stat(path); err == nil {
		switch {
		case st.IsDir():
			return fmt.Errorf("%s is a directory", path)
		case !st.Mode().IsRegular():
			return nil
		}
	}
	dir, err := existingDir(filepath.Dir(path))
	if err != nil {
		return err
	}
	probe, err := os.CreateTemp(dir, ".outfile-check-*")
	if err != nil {
		return fmt.Errorf("cannot create files in %s: %w", dir, cause(err))
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// existingDir is dir or its nearest ancestor that exists, which must be a directory.
func existingDir(dir string) (string, error) {
	for {
		st, err := os.Stat(dir)
		switch {
		case err == nil && st.IsDir():
			return dir, nil
		case err == nil:
			return "", fmt.Errorf("%s is not a directory", dir)
		case !errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("%s: %w", dir, cause(err))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%s: %w", dir, cause(err))
		}
		dir = parent
	}
}

// cause is the system's reason in a path error ("permission denied"), without the path and operation.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// File is an output file being written: a temporary file beside its final path, or the path itself when that
// is not a regular file.
type File struct {
	// f is the open temporary file (or the final path when inPlace).
	f *os.File
	// path is the final path; inPlace is true when f writes it directly.
	path    string
	inPlace bool
	// done is true once the file was committed or aborted.
	done bool
}

// live are the temporary files not yet committed or aborted; mu guards it and every File's done.
var (
	mu   sync.Mutex
	live = map[*File]bool{}
)

// Create starts writing the output file path: it creates the missing directories and a temporary file beside
// path whose name keeps path's extension.
func Create(path string) (*File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &File{f: f, path: path, inPlace: true}, nil
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	f, err := os.CreateTemp(filepath.Dir(path), "."+strings.TrimSuffix(base, ext)+".tmp-*"+ext)
	if err != nil {
		return nil, err
	}
	out := &File{f: f, path: path}
	mu.Lock()
	live[out] = true
	mu.Unlock()
	return out, nil
}

// Write writes to the temporary file.
func (o *File) Write(p []byte) (int, error) {
	return o.f.Write(p)
}

// Name is the temporary file's path, for a writer that takes a path: it may replace the file.
func (o *File) Name() string {
	return o.f.Name()
}

// Commit closes the temporary file and renames it over the final path, with the final path's mode when it
// existed (else 0644). After AbortAll it fails and leaves the final path as it was.
func (o *File) Commit() error {
	mu.Lock()
	defer mu.Unlock()
	if o.done {
		return fmt.Errorf("%s: output file already committed or abandoned", o.path)
	}
	o.done = true
	delete(live, o)
	err := o.f.Close()
	if o.inPlace {
		return err
	}
	mode := fs.FileMode(0o644)
	if st, serr := os.Stat(o.path); serr == nil {
		mode = st.Mode().Perm()
	}
	if err == nil {
		err = os.Chmod(o.f.Name(), mode)
	}
	if err == nil {
		err = os.Rename(o.f.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.f.Name())
	}
	return err
}

// Abort removes the temporary file; the final path stays as it was. It does nothing after Commit, so it can be
// deferred.
func (o *File) Abort() {
	mu.Lock()
	defer mu.Unlock()
	o.abort()
}

// abort is Abort with mu held.
func (o *File) abort() {
	if o.done {
		return
	}
	o.done = true
	delete(live, o)
	o.f.Close()
	if !o.inPlace {
		os.Remove(o.f.Name())
	}
}

// AbortAll aborts every output file not yet committed: what a program does when a signal stops it.
func AbortAll() {
	mu.Lock()
	defer mu.Unlock()
	for o := range live {
		o.abort()
	}
}

// WriteWith writes the output file path with write, or leaves path as it was when write fails.
func WriteWith(path string, write func(io.Writer) error) error {
	o, err := Create(path)
	if err != nil {
		return err
	}
	defer o.Abort()
	if err := write(o); err != nil {
		return err
	}
	return o.Commit()
}

// WriteFile writes data to the output file path.
func WriteFile(path string, data []byte) error {
	return WriteWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
