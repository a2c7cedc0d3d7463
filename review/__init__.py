"""Human review of a release's queue: storage, agreement, the web app, Label Studio files, build decisions."""
