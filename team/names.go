package team

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agenthooks/agenthooks/config"
)

// maxNameBytes is the longest file name common file systems accept.
const maxNameBytes = 255

// CheckScriptName reports why name cannot be a script's file name in the
// hooks folder, or nil. A name must be one plain path element: not empty,
// no separator, not . or .., no leading dot (hidden, and the staging
// folders' prefix space), no control characters, at most 255 bytes, valid
// UTF-8 and not the manifest's name. For Windows (forWindows) it must also
// avoid the characters Windows forbids, a trailing dot or space, and the
// reserved device names (CON, NUL, COM1, … with any extension), which
// would address a device instead of a file.
func CheckScriptName(name string, forWindows bool) error {
	switch {
	case name == "":
		return errors.New("the script name is empty")
	case len(name) > maxNameBytes:
		return fmt.Errorf("the script name is %d bytes long; at most %d are allowed", len(name), maxNameBytes)
	case !utf8.ValidString(name):
		return errors.New("the script name is not valid UTF-8")
	case strings.ContainsAny(name, `/\`):
		return errors.New(`the script name must be a plain file name, without / or \`)
	case name == "." || name == "..":
		return errors.New("the script name . or .. names a folder, not a file")
	case name[0] == '.':
		return errors.New("the script name must not start with a dot (hidden files are refused)")
	case strings.EqualFold(name, ManifestName):
		return errors.New("the script name hooks.json is taken by the manifest")
	case strings.EqualFold(name, config.SandboxName):
		return errors.New("the script name sandbox.json is taken by the team's sandbox")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Errorf("the script name contains the control character %U", r)
		}
	}
	if forWindows {
		return checkWindowsName(name)
	}
	return nil
}

// checkWindowsName applies the rules of Windows file names.
func checkWindowsName(name string) error {
	if i := strings.IndexAny(name, `<>:"|?*`); i >= 0 {
		return fmt.Errorf("the script name contains %q, which Windows does not allow in file names", name[i])
	}
	if last := name[len(name)-1]; last == '.' || last == ' ' {
		return errors.New("the script name ends with a dot or a space, which Windows drops")
	}
	base := name
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	base = strings.ToUpper(strings.TrimRight(base, " "))
	if windowsReserved(base) {
		return fmt.Errorf("the script name %s is a reserved device name on Windows", base)
	}
	return nil
}

// windowsReserved reports whether base (upper case, extension removed)
// names a DOS device.
func windowsReserved(base string) bool {
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) >= 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		switch base[3:] {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}
