"""Presentation mode (sidebar toggle, `present=1` in the URL): ui/present.py."""

EN = {
    "side.present": "Presentation mode",
    "side.present_help": "For a projector: larger chart fonts and labels, square heatmap cells, "
    "and the explanations folded away (open them under “Explanation”). In the URL as present=1.",
    "present.more": "Explanation",
}

ZH = {
    "side.present": "演示模式",
    "side.present_help": "用于投影：图表字体和标签更大，热力图的格子为正方形，说明文字折叠起来"
    "（在“说明”下展开）。在网址中为 present=1。",
    "present.more": "说明",
}
