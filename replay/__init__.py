"""The application: fold and compare hands, import and export, projections, the books, live
recording, what-if and corrections. Imports every layer below; never cli.
"""
