"""sway and other wlroots compositors, the game a native Wayland client.

- ``wire``, ``protocol``, ``client``: the Wayland wire format, the messages minebot uses, one
  connection with its globals and outputs;
- ``capture``: frames through ``wlr-screencopy-unstable-v1`` into shared memory (``OutputCapture``);
- ``devices``: minebot's virtual pointer and keyboard on the seat;
- ``failsafe``: transparent corner surfaces (layer-shell) that tell when the user threw the
  pointer into a corner;
- ``overlay``: the hint's marks on one layer-shell surface that takes no input, and screen
  copies taken with the marks off (``LayerOverlay``, ``HiddenLayerCapture``);
- ``sway``: sway's window list through its IPC socket;
- ``backend``: ``WlrootsBackend``, what live play uses, and ``offers_wlroots`` (detection).
"""
