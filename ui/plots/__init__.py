"""Charts (pyqtgraph). Import these modules only where a chart is shown: pyqtgraph loads with
them, never at start-up."""
