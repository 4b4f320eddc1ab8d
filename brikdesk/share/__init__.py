"""Sharing the campaign with the players: a read-only live page on the local network.

``page_data`` reads what the page shows through the services; ``server`` serves it (Starlette
on uvicorn, on a thread of its own) with the page's files from ``resources/share``. No Qt here:
the app's Share dialog and ``brikdesk share`` both drive ``server.ShareServer``.
"""
