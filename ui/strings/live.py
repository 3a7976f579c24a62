"""What the Train and Induction pages say about a run trained live (ui/sections/live.py)."""

EN = {
    "live.background": "Training goes on while you visit other pages: come back to see it "
    "further along, or finished.",
}

ZH = {
    "live.background": "你去看其他页面时训练不会停：回来时可以看到它已经更进一步，或已经完成。",
}
