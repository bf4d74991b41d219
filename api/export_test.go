package api

// WithTestSleep makes the client's waits (retries, polls) return at once,
// calling f with each, for the tests outside the package.
var WithTestSleep = withSleep
