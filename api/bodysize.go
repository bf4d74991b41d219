package api

// MaxRequestBytes is the largest body of a message request the service
// takes: 32 MB, counted in decimal to be safe. Validate refuses a request
// whose body, as the client encodes it, is larger.
const MaxRequestBytes = 32_000_000

// dataKey is what a base64 source's data adds to its JSON besides the
// data itself: `,"data":""` (type comes first, and is never empty).
const dataKey = len(`,"data":""`)

// bodySize returns the size in bytes of r's body as the client sends it
// (with stream true, the longer), and how much of it is the base64 data of
// image and document sources (each with its key, dataKey). It is the body
// the client sends (see encodeBody), whose parts are the request encoded
// without its sources' data and those data strings themselves: nothing is
// copied but the rest of the request.
func (r *MessageRequest) bodySize() (body, sources int, err error) {
	stub := *r
	stub.Stream = true
	b, err := stub.encodeBody()
	if err != nil {
		return 0, 0, err
	}
	for i := 1; i < len(b.parts); i += 2 { // the data, between the parts around it
		sources += b.parts[i].len() + dataKey
	}
	return int(b.size), sources, nil
}
