"""The app read by a real screen-reader client: ``app.py`` runs BrikDesk under Xvfb on the
AT-SPI bus and opens its windows one by one; ``client.py`` (Debian's python3 with pyatspi)
reads each through the bus."""
