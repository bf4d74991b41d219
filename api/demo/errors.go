package demo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
)

// Error types of Anthropic's error body.
const (
	errInvalidRequest = "invalid_request_error"
	errAuthentication = "authentication_error"
	errNotFound       = "not_found_error"
	errTooLarge       = "request_too_large"
	errRateLimit      = "rate_limit_error"
	errAPI            = "api_error"
	errOverloaded     = "overloaded_error"
)

// statusOverloaded is Anthropic's status for overloaded_error.
const statusOverloaded = 529

// maxBody bounds a request body.
const maxBody = 32 << 20

// errorDetail is the inner object of an error body.
type errorDetail struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// errorBody is Anthropic's error body, also the data of a stream's error event.
type errorBody struct {
	Type  string      `json:"type"`
	Error errorDetail `json:"error"`
}

func newErrorBody(typ, msg string) errorBody {
	return errorBody{Type: "error", Error: errorDetail{Type: typ, Message: msg}}
}

// writeError answers with status and an Anthropic error body.
func writeError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, newErrorBody(typ, msg))
}

// writeOverloaded answers 529 overloaded_error with x-should-retry, as the
// real service does.
func writeOverloaded(w http.ResponseWriter) {
	w.Header().Set("x-should-retry", "true")
	writeError(w, statusOverloaded, errOverloaded, "Overloaded")
}

// writeJSON answers with status and v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = marshal(newErrorBody(errAPI, "demo: encoding the response: "+err.Error()))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// marshal encodes v as one line of JSON without HTML escaping, as the real
// service does.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// decodeBody reads a JSON request body into v. On failure it has answered
// with an error and returns false.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			writeError(w, http.StatusBadRequest, errInvalidRequest,
				fmt.Sprintf("Content-Type must be application/json, got %q", ct))
			return false
		}
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, errTooLarge,
				fmt.Sprintf("request body is larger than %d bytes", maxBody))
			return false
		}
		writeError(w, http.StatusBadRequest, errInvalidRequest, "reading request body: "+err.Error())
		return false
	}
	if len(bytes.TrimSpace(data)) == 0 {
		writeError(w, http.StatusBadRequest, errInvalidRequest, "request body is empty: send a JSON object")
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		writeError(w, http.StatusBadRequest, errInvalidRequest, "invalid JSON body: "+describeJSONError(err))
		return false
	}
	return true
}

// describeJSONError names the offending field of a decoding error when it can.
func describeJSONError(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return fmt.Sprintf("%s: expected %s, got JSON %s", typeErr.Field, typeErr.Type, typeErr.Value)
	}
	return err.Error()
}
