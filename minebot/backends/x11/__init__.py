"""X11 and XWayland: the game is an X window, grabbed with XShm and played with XTEST."""
