package host

import (
	"os"
	"syscall"
)

func sysStat(fi os.FileInfo, s *stat) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ctime = st.Ctim.Nano()
		s.dev, s.ino = uint64(st.Dev), st.Ino
	}
}
