"""Any Wayland desktop with an xdg-desktop-portal that offers ScreenCast and RemoteDesktop (KDE
Plasma through xdg-desktop-portal-kde, and others): the game a native Wayland client.

- ``tokens``: the restore token kept in the user's state folder (the dialog comes once);
- ``session``: one RemoteDesktop session with its screen cast (requests, frames, input);
- ``capture``: the stream's frames (``StreamCapture``);
- ``pointer``: clicks through the session and the fail-safe (``PortalPointer``);
- ``backend``: ``PortalBackend``, what live play uses (keys go through the session).
"""
