//! Static SVG drawing of the chart model (not written yet).
