package wire

import "errors"

// ErrConfinedPeer says the peer runs inside a sandbox this process is not in
// (CheckPeerFD).
var ErrConfinedPeer = errors.New("the peer runs inside a sandbox")
