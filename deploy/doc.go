// Package deploy holds the files that run agenthooks as a service: the
// container image (Dockerfile), systemd units and a launchd agent. It has
// no code; its tests check those files, so a broken unit or an image that
// would run as root fails the build rather than a deployment.
package deploy
