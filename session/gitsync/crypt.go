package gitsync

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"filippo.io/age"

	"muse/api/regfile"
)

// keyCheck is the text key.age holds, encrypted to the identity: a machine
// whose identity does not open it is refused before it writes anything.
const keyCheck = "muse sync v1 key check\n"

// ErrWrongKey means the identity does not open the remote's data.
var ErrWrongKey = errors.New("this key does not open the remote's data: it was set up with another key (muse sync key, on a machine that syncs, prints the right one)")

// NewIdentity makes a new identity, for the first machine.
func NewIdentity() (string, error) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return "", fmt.Errorf("make a sync key: %w", err)
	}
	return id.String(), nil
}

// parseIdentity reads an age identity (AGE-SECRET-KEY-1...). The error
// never holds the text.
func parseIdentity(s string) (*age.X25519Identity, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("no sync key on this machine: set MUSE_SYNC_KEY, or sync_key_cmd in the profile (muse sync key prints it on a machine that syncs)")
	}
	s = strings.TrimSpace(s)
	id, err := age.ParseX25519Identity(s)
	if err != nil {
		return nil, fmt.Errorf("the sync key is not an age identity: %s; copy it again whole (muse sync key prints it on a machine that syncs)", identityFault(s))
	}
	return id, nil
}

// identityPrefix and identityLen are the start and the length of every
// age identity (AGE-SECRET-KEY-1 and 58 characters of bech32).
const (
	identityPrefix = "AGE-SECRET-KEY-1"
	identityLen    = 74
)

// bech32Chars are the characters of an identity after its prefix.
const bech32Chars = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"

// identityFault says what is wrong with s, which age refused as an
// identity, without quoting any of it.
func identityFault(s string) string {
	switch {
	case strings.ContainsAny(s, " \t\r\n"):
		return "it holds a space or a line break, where an identity is one word"
	case !strings.HasPrefix(strings.ToUpper(s), identityPrefix):
		return "it does not start with " + identityPrefix
	case s != strings.ToUpper(s):
		return "it holds small letters, where an identity is all capitals"
	case len(s) != identityLen:
		return fmt.Sprintf("it is %d characters long where an identity is %d, so part of it was lost, or something added, when it was copied", len(s), identityLen)
	}
	if i := strings.IndexFunc(s[len(identityPrefix):], func(r rune) bool { return !strings.ContainsRune(bech32Chars, r) }); i >= 0 {
		return fmt.Sprintf("its character %d is none an identity holds (after %s it never holds B, I, O or 1)", len(identityPrefix)+i+1, identityPrefix)
	}
	return "its checksum does not match, so a character of it changed when it was copied"
}

// encrypt encrypts data to the identity's recipient.
func encrypt(id *age.X25519Identity, data []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, id.Recipient())
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decrypt authenticates and decrypts data whole, refusing more than max
// bytes of plain text.
func decrypt(id *age.X25519Identity, data []byte, max int64) ([]byte, error) {
	r, err := age.Decrypt(bytes.NewReader(data), id)
	if err != nil {
		var nm *age.NoIdentityMatchError
		if errors.As(err, &nm) {
			return nil, ErrWrongKey
		}
		return nil, err
	}
	out, err := regfile.ReadAll(r, max)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkKey reports whether the identity opens key.age's ciphertext.
func checkKey(id *age.X25519Identity, data []byte) error {
	plain, err := decrypt(id, data, 1<<10)
	if errors.Is(err, ErrWrongKey) {
		return ErrWrongKey
	}
	if err != nil || string(plain) != keyCheck {
		return errors.New("the remote's key check (muse-sync/v1/key.age) is damaged: it cannot be opened")
	}
	return nil
}
