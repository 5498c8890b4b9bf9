"Heading anchors the way nbdev and Quarto write them, so nbdev's `show_doc` links resolve in the Sphinx site."
import re


def nbdev_slug(title: str) -> str:
    "`TensorSharding.verify` -> `tensorsharding.verify`, `Dim shardings` -> `dim-shardings`."
    return re.sub(r"\s+", "-", re.sub(r"[^\w\s.-]", "", title.strip().lower()))
