//go:build windows

package wire

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Supported reports whether this system has a resident engine.
const Supported = true

// fileID is empty: the file information Windows gives without opening
// the file has no file index (size and times still tell a rebuild).
func fileID(fs.FileInfo) string { return "" }

// Dir returns the folder that holds the user's engine lock and log,
// creating it: agenthooks-SID in the user's temporary folder (%TMP%, else
// %TEMP%), open to the user alone. On Windows the engine listens on a
// named pipe (PipeName), not on a file in this folder; the folder is
// refused all the same when it is a link or belongs to another user.
func Dir(getenv func(string) string) (string, error) {
	sid, err := userSID()
	if err != nil {
		return "", err
	}
	base := getenv("TMP")
	if !filepath.IsAbs(base) {
		base = getenv("TEMP")
	}
	if !filepath.IsAbs(base) {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "agenthooks-"+sid.String())
	if err := createPrivate(dir, sid); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("engine folder %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return "", fmt.Errorf("engine folder %s: %w", dir, err)
	case !fi.IsDir() || fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0:
		return "", fmt.Errorf("engine folder %s is not a directory", dir)
	}
	if err := ownedByUser(dir, sid); err != nil {
		return "", err
	}
	return dir, nil
}

// createPrivate creates dir with a protected access list that grants the
// user (and the system) alone.
func createPrivate(dir string, sid *windows.SID) error {
	sd, err := windows.SecurityDescriptorFromString(PrivateSDDL(sid))
	if err != nil {
		return err
	}
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return err
	}
	sa := &windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd}
	return windows.CreateDirectory(p, sa)
}

// PrivateSDDL is the security descriptor of the engine's folder and pipe:
// the user is its owner and the only one granted access, with the system
// itself; nothing is inherited from the parent.
func PrivateSDDL(sid *windows.SID) string {
	s := sid.String()
	return "O:" + s + "D:P(A;OICI;GA;;;" + s + ")(A;OICI;GA;;;SY)"
}

// ownedByUser checks that the user owns path, or the system or the
// Administrators (what an elevated administrator creates may be theirs;
// either could take the folder anyway).
func ownedByUser(path string, sid *windows.SID) error {
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("engine folder %s: owner: %w", path, err)
	}
	owner, _, err := sd.Owner()
	if err != nil || owner == nil {
		return fmt.Errorf("engine folder %s: no owner: %v", path, err)
	}
	if SameUser(owner, sid) || owner.IsWellKnown(windows.WinLocalSystemSid) || owner.IsWellKnown(windows.WinBuiltinAdministratorsSid) {
		return nil
	}
	return fmt.Errorf("engine folder %s belongs to another user (%s)", path, owner)
}

// CheckSocket has nothing to check on Windows: the socket's path only
// names the engine's pipe (PipeName), whose server each client checks
// once connected (CheckPipeServer).
func CheckSocket(string) error { return nil }

// PipeName is the named pipe the engine for the socket path sock listens
// on: \\.\pipe\agenthooks-SID-engine-vN-DIGEST, the user's SID and a
// digest of the path (the folder, the protocol and the settings' digest),
// so that each user, protocol and set of settings has its own pipe, as
// each has its own socket on unix.
func PipeName(sock string) (string, error) {
	sid, err := userSID()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(sock))
	return `\\.\pipe\agenthooks-` + sid.String() + "-engine-v" + strconv.Itoa(Protocol) + "-" + hex.EncodeToString(sum[:])[:20], nil
}
