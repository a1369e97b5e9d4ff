package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// WatchDebounce is how long Watch waits after the last change before it
// reloads: editors write a file in several steps, and a reload per step
// would briefly run half-written configurations.
const WatchDebounce = 150 * time.Millisecond

// Watch reloads the configuration whenever a hooks file is created,
// changed or removed, until ctx ends. It watches the parent folders rather
// than the files, so a file that does not exist yet, or that an editor
// replaces by renaming, is still seen. onReload, when not nil, is called
// after each reload.
func (e *Engine) Watch(ctx context.Context, onReload func()) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch hooks files: %w", err)
	}
	defer w.Close()

	watched := map[string]bool{}
	relevant := map[string]bool{}
	sync := func() {
		relevant = map[string]bool{}
		want := map[string]bool{}
		paths := e.Config().Watched()
		// The trust store too: a revoke must stop project hooks at once.
		if t, ok := e.opts.Trust.(interface{ Path() string }); ok && t.Path() != "" {
			paths = append(paths, t.Path())
		}
		for _, p := range paths {
			relevant[filepath.Clean(p)] = true
			dir := filepath.Dir(p)
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				dir = p
			}
			if _, err := os.Stat(dir); err == nil {
				want[dir] = true
			}
		}
		for d := range watched {
			if !want[d] {
				_ = w.Remove(d)
				delete(watched, d)
			}
		}
		for d := range want {
			if !watched[d] {
				if err := w.Add(d); err == nil {
					watched[d] = true
				}
			}
		}
	}
	sync()

	var timer *time.Timer
	var fire <-chan time.Time
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if !relevant[filepath.Clean(ev.Name)] && !relevant[filepath.Dir(filepath.Clean(ev.Name))] {
				continue
			}
			if timer == nil {
				timer = time.NewTimer(WatchDebounce)
			} else {
				timer.Reset(WatchDebounce)
			}
			fire = timer.C
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			e.opts.Logger.WarnContext(ctx, "watching hooks files", "err", err)
		case <-fire:
			fire = nil
			e.Reload(ctx)
			sync()
			if onReload != nil {
				onReload()
			}
		}
	}
}
