"""Renderers of HDF5 reports for people and for CI: an offline HTML page with figures
(`render_html`) and a comparison of two reports (`diff_reports`)."""

from .diff import MetricChange, ReportDiff, VerdictChange, diff_reports
from .html import render_html

__all__ = ["MetricChange", "ReportDiff", "VerdictChange", "diff_reports", "render_html"]
