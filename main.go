// Command muse is a terminal chat and image-generation client.
//
// Run muse --help for its flags, or muse --demo to try it offline.
package main

import (
	"os"

	"muse/ui/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.OSEnv()))
}
