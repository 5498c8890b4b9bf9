# Sphinx configuration for the shardnb docs site. Sources are generated: run `python tools/build_docs.py`
# (it executes the notebooks, runs nbdev's processing, translates what is Quarto-flavoured, then Sphinx).
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

project = "shardnb"
author = "shardnb maintainers"
copyright = "shardnb maintainers, Apache-2.0"
html_title = "shardnb"

extensions = ["myst_nb"]
source_suffix = {".ipynb": "myst-nb", ".md": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints"]

# The notebooks are executed by tools/build_docs.py (nbdev's engine) before Sphinx sees them.
nb_execution_mode = "off"
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 6
myst_heading_slug_func = "slugs.nbdev_slug"

html_theme = "furo"
html_static_path = []
html_show_sourcelink = False
pygments_style = "sphinx"
pygments_dark_style = "monokai"
