"""The operating system's side: screen grabs, virtual displays, the mouse and the stop key."""
