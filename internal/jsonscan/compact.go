package jsonscan

// AppendCompact appends src to dst without the whitespace between its
// tokens, as json.Compact does, and with no HTML escaping. src must be
// one JSON value (of any depth); when it is not, dst comes back as it
// was, with the *SyntaxError.
func AppendCompact(dst, src []byte) ([]byte, error) {
	if err := Check(src); err != nil {
		return dst, err
	}
	start := 0
	for i := 0; i < len(src); {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			dst = append(dst, src[start:i]...)
			i = skipSpace(src, i)
			start = i
		case '"':
			i, _ = skipString(src, i)
		default:
			i++
		}
	}
	return append(dst, src[start:]...), nil
}

// AppendIndent appends src to dst indented as json.Indent indents it:
// each element on a new line that begins with prefix and one indent per
// level, the first line without prefix, empty objects and arrays kept as
// {} and [], whitespace after the value kept. src must be one JSON value
// (of any depth); when it is not, dst comes back as it was, with the
// *SyntaxError.
func AppendIndent(dst, src []byte, prefix, indent string) ([]byte, error) {
	if err := Check(src); err != nil {
		return dst, err
	}
	end := len(src)
	for end > 0 && isSpace(src[end-1]) {
		end--
	}
	newline := func(depth int) {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		if indent == "" {
			return // the loop below would cost depth for nothing
		}
		for range depth {
			dst = append(dst, indent...)
		}
	}
	needIndent := false
	depth := 0
	for i := skipSpace(src, 0); i < end; i++ {
		c := src[i]
		if isSpace(c) {
			continue
		}
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			newline(depth)
		}
		switch c {
		case '"':
			j, _ := skipString(src, i)
			dst = append(dst, src[i:j]...)
			i = j - 1
		case '{', '[':
			needIndent = true // an empty object or array stays {} or []
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline(depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if needIndent {
				needIndent = false
			} else {
				depth--
				newline(depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, src[end:]...), nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}
