//go:build !unix

package teamsync

import "os"

// syncDir does nothing: Windows cannot flush a folder handle, and NTFS
// journals renames; other systems without Unix folders cannot either.
func syncDir(*os.Root, string) error { return nil }
