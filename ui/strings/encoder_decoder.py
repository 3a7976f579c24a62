"""The Encoder-decoder page ("Inside the Transformer").

The names follow the original paper and most introductions: encoder self-attention, masked
(causal) decoder self-attention, cross-attention (encoder-decoder attention), Add & Norm,
feed-forward; 编码器自注意力, 掩码 (因果) 解码器自注意力, 交叉注意力, 残差连接与层归一化 (Add & Norm),
前馈网络. Markdown strings write math as $...$ (KaTeX). Figure titles go through Plotly, which
reads a little HTML: no "<" in them.
"""

EN = {
    "encoder_decoder.title": "Inside the Transformer: encoder and decoder",
    "encoder_decoder.intro": "Multi-head attention at work in a small encoder-decoder "
    "Transformer built from this app's attention layer. The **encoder** reads the source "
    "sentence (the sidebar's); the **decoder** reads the target sentence below, each target "
    "token seeing only itself and the tokens before it, and looks at the encoder's output through "
    "**cross-attention**. The weights are random (seed {seed}), not trained: the page shows "
    "where each kind of attention may look, not what it has learned.",
    "encoder_decoder.settings_note": "Size, heads, seed, tokenizer and positional encoding come "
    "from the sidebar. The sidebar's scaling, mask and scoring settings belong to the other "
    "pages: a Transformer uses scaled dot-product attention, with the causal mask only in the "
    "decoder's self-attention.",
    "encoder_decoder.no_pe": "Size, heads, seed and tokenizer come from the sidebar. Positional "
    "encoding is off in the sidebar, so tokens enter as their embeddings alone. The sidebar's "
    "scaling, mask and scoring settings belong to the other pages: a Transformer uses scaled "
    "dot-product attention, with the causal mask only in the decoder's self-attention.",
    "encoder_decoder.target": "Target sentence (what the decoder reads)",
    "encoder_decoder.target_help": "In training the decoder reads the whole target at once "
    "(teacher forcing); the causal mask keeps each position from seeing the later ones. "
    "Tokenized like the sidebar's sentence.",
    "encoder_decoder.target.empty": "Type a target sentence above to see the decoder.",
    "encoder_decoder.target.no_tokens": "The target sentence has no tokens (only spaces or "
    "invisible characters). Type at least one word.",
    "encoder_decoder.target.truncated": "The target sentence has {n_total} tokens; this page "
    "uses the first {limit}.",
    "encoder_decoder.layers": "Layers N (encoder and decoder)",
    "encoder_decoder.layers_help": "The encoder and the decoder each stack N identical layers "
    "(each with its own weights); the paper uses N = 6.",
    "encoder_decoder.layer": "Layer shown",
    "encoder_decoder.layer_option": "{l}",
    "encoder_decoder.layer_help": "Which layer's attention the page shows; 0 is the first. "
    "Every decoder layer's cross-attention reads the encoder's final output.",
    "encoder_decoder.pre_norm": "Pre-norm",
    "encoder_decoder.pre_norm_help": "Off: post-norm, as in the original paper: "
    "x → LayerNorm(x + Sublayer(x)). On: pre-norm, as in most recent models: "
    "x → x + Sublayer(LayerNorm(x)), with one more LayerNorm after the last layer.",
    "encoder_decoder.part": "Look inside",
    "encoder_decoder.part.attention": "Three kinds of attention",
    "encoder_decoder.part.padding": "Padding",
    "encoder_decoder.part.addnorm": "Add & Norm",
    "encoder_decoder.part.dropout": "Dropout",
    "encoder_decoder.head": "Head",
    "encoder_decoder.head_option": "h = {h}",
    "encoder_decoder.model": "The model: d_model = {d_model}, {n_heads} heads of d_k = {d_k} "
    "dimensions, feed-forward width {d_ff}, N = {n} encoder and {n} decoder layers.",
    "encoder_decoder.box.encoder": "Encoder",
    "encoder_decoder.box.decoder": "Decoder",
    "encoder_decoder.box.inputs": "source tokens",
    "encoder_decoder.box.outputs": "target tokens",
    "encoder_decoder.box.self_attn": "Multi-head self-attention",
    "encoder_decoder.box.masked_attn": "Masked multi-head self-attention",
    "encoder_decoder.box.cross_attn": "Multi-head cross-attention",
    "encoder_decoder.box.ff": "Feed-forward",
    "encoder_decoder.box.add_norm": "Add & Norm",
    "encoder_decoder.box.add": "Add (residual)",
    "encoder_decoder.box.norm": "LayerNorm",
    "encoder_decoder.box.linear": "Linear → scores over the vocabulary",
    "encoder_decoder.box.repeat": "× {n}",
    "encoder_decoder.diagram_post": "One encoder layer and one decoder layer, post-norm (each "
    "sub-layer, then Add & Norm); each stack repeats its layer {n} times. Orange: what is shown "
    "below, in layer {layer}. The arrow between the stacks carries the encoder's output to "
    "every decoder layer's cross-attention.",
    "encoder_decoder.diagram_pre": "One encoder layer and one decoder layer, pre-norm (LayerNorm, "
    "then each sub-layer, then the residual Add); each stack repeats its layer {n} times and "
    "ends with one more LayerNorm. Orange: what is shown below, in layer {layer}. The arrow "
    "between the stacks carries the encoder's output to every decoder layer's cross-attention.",
    "encoder_decoder.weight": "weight",
    "encoder_decoder.query": "query",
    "encoder_decoder.key": "key",
    "encoder_decoder.token": "token",
    "encoder_decoder.feature": "feature",
    "encoder_decoder.value": "value",
    "encoder_decoder.position": "position",
    # three kinds of attention
    "encoder_decoder.attn.text": "A Transformer with an encoder and a decoder attends in three "
    "ways, one tab each: the encoder's tokens among themselves, the decoder's tokens among "
    "themselves under a causal mask, and the decoder's tokens over the encoder's output.",
    "encoder_decoder.view.encoder": "Encoder self-attention",
    "encoder_decoder.view.decoder": "Decoder masked self-attention",
    "encoder_decoder.view.cross": "Cross-attention",
    "encoder_decoder.enc.title": "Encoder self-attention (layer {layer})",
    "encoder_decoder.enc.caption": "Every source token (row, the query) may attend to every "
    "source token (column, the key): {S} × {S} per head, no mask. Every row sums to 1 "
    "(computed: {lo} … {hi}).",
    "encoder_decoder.dec.title": "Decoder masked self-attention (layer {layer})",
    "encoder_decoder.dec.caption": "Each target token may attend only to itself and the tokens "
    "before it ({T} × {T} per head), so that in training no position sees the word it is to "
    "predict. The causal mask (left) adds 0 to the scores on and below the diagonal and −∞ above "
    "it, so after the softmax every weight above the diagonal is exactly 0 (largest computed: "
    "{upper}).",
    "encoder_decoder.dec.mask_title": "Causal mask",
    "encoder_decoder.dec.mask_value": "added to the score",
    "encoder_decoder.cross.title": "Cross-attention (layer {layer})",
    "encoder_decoder.cross.caption": "The decoder's queries (target tokens, rows) attend over "
    "the encoder's output (source tokens, columns): {T} × {S} per head, not square when the "
    "sentences differ in length. No causal mask here: every target token may look at the whole "
    "source. Every row sums to 1 (computed: {lo} … {hi}).",
    # padding
    "encoder_decoder.pad.text": "A batch holds sentences of different lengths, so the shorter "
    "ones are filled up with padding to the longest. The padding mask (1 at padding) sets the "
    "scores of padded keys to −∞ before the softmax, so no query attends to them. The batch "
    "here: your sentence (sentence 1) and its first n tokens (sentence 2), through the encoder.",
    "encoder_decoder.pad.cut": "Sentence 2: the first n tokens of your sentence",
    "encoder_decoder.pad.cut_help": "The shorter sentence of the batch; it is padded up to the "
    "length of your sentence.",
    "encoder_decoder.pad.one_token": "Your sentence has one token: there is no shorter sentence "
    "to pad. Type a longer sentence in the sidebar.",
    "encoder_decoder.pad.token": "[PAD]",
    "encoder_decoder.pad.sentence": "sentence {b} ({n} tokens)",
    "encoder_decoder.pad.mask_title": "Padding mask: {n} padded positions of {P}",
    "encoder_decoder.pad.mask_value": "padding",
    "encoder_decoder.pad.none": "No sentence of this batch needs padding.",
    "encoder_decoder.pad.keys": "In the batch, every query of every head gives the padded keys "
    "weight exactly 0 (largest computed, both sentences, all heads: **{pad_max}**). Sentence "
    "{b}'s real tokens get the same weights as when it runs alone, unpadded (largest "
    "difference: {diff}). Below: head {h}, layer {layer}.",
    "encoder_decoder.pad.fig_keys": "Sentence {b}: padded keys masked",
    "encoder_decoder.pad.fig_queries": "Sentence {b}: padded queries masked too",
    "encoder_decoder.pad.empty_rows": "Left: the rows of the padded positions are computed like "
    "any other (they attend to the real tokens) and ignored afterwards. Right: masking the "
    "padded queries too leaves them no key at all. A plain softmax of a row of −∞ is 0/0 = NaN: "
    "on these scores it gives **{nan_rows}** NaN rows, counting every head (PyTorch's "
    "`nn.MultiheadAttention` returns NaN there too). This app's attention returns such rows as "
    "zeros instead: **{empty}** rows have no key, their largest weight is {empty_max}, and there are {nans} "
    "NaN values in all.",
    # Add & Norm
    "encoder_decoder.norm.text_post": "**Add & Norm** after the self-attention of encoder layer "
    "{layer}: the residual sum $x + \\mathrm{{SelfAttention}}(x)$ (Add), then LayerNorm (Norm). "
    "Rows are the real tokens of the padding batch (sentence 1, then sentence 2), columns the "
    "features.",
    "encoder_decoder.norm.text_pre": "In pre-norm the self-attention of encoder layer {layer} "
    "reads $\\mathrm{{LayerNorm}}(x)$, and the residual sum "
    "$x + \\mathrm{{SelfAttention}}(\\mathrm{{LayerNorm}}(x))$ (Add) stays un-normalised on the "
    "residual stream; the LayerNorm shown is the one that prepares it for the feed-forward. "
    "Rows are the real tokens of the padding batch (sentence 1, then sentence 2), columns the "
    "features.",
    "encoder_decoder.norm.batch": "Sentence 2 is the first {n} tokens of your sentence (see "
    "Padding): {N} real tokens in all; padding is left out.",
    "encoder_decoder.norm.batch_one": "Sentence 2 is the first token of your sentence (see "
    "Padding): {N} real tokens in all; padding is left out.",
    "encoder_decoder.batch_row": "{b} · {token}",
    "encoder_decoder.norm.mean": "mean",
    "encoder_decoder.norm.std": "std",
    "encoder_decoder.norm.fig_add": "Add: x + SelfAttention(x)",
    "encoder_decoder.norm.fig_add_pre": "Add: x + SelfAttention(LayerNorm(x))",
    "encoder_decoder.norm.fig_ln": "LayerNorm: each token on its own",
    "encoder_decoder.norm.ln_axis": "normalised along →: each row, over its {C} features",
    "encoder_decoder.norm.ln_stats": "**LayerNorm** normalises each token (row) over its {C} "
    "features: every row gets mean 0 (largest |mean| computed: {mean}) and standard deviation 1 "
    "(computed: {std_lo} … {std_hi}; the ε in the denominator keeps it just under 1). The "
    "columns are not normalised: feature means run from {f_lo} to {f_hi}. The model's own "
    "LayerNorm (scale γ = 1, shift β = 0, as initialised) gives the same numbers (largest "
    "difference {diff}).",
    "encoder_decoder.norm.fig_bn": "BatchNorm: each feature over the batch",
    "encoder_decoder.norm.bn_axis": "normalised along ↓: each column, over the {N} tokens",
    "encoder_decoder.norm.bn_stats": "**BatchNorm** normalises each feature (column) over the "
    "{N} real tokens of the batch: every column gets mean 0 (largest |mean| computed: {mean}) "
    "and standard deviation 1 (computed: {std_lo} … {std_hi}). The rows are not normalised: "
    "token means run from {t_lo} to {t_hi}.",
    "encoder_decoder.norm.constant": "A feature or token whose values are all equal has nothing "
    "to normalise: its output is 0 and its standard deviation 0.",
    "encoder_decoder.norm.why": "In training, BatchNorm's numbers for a token depend on the "
    "other sentences in the batch (change sentence 2 and watch them move); LayerNorm's do not. "
    "BatchNorm also evaluates with running statistics that differ from the batch statistics it "
    "trained with, mixes sentences of different lengths and their padding into its statistics, "
    "and gets noisy statistics from small batches (Shen et al. 2020, §3). LayerNorm computes "
    "the same thing in training and at inference (Ba et al. 2016, §1): that is why "
    "Transformers use it.",
    # dropout
    "encoder_decoder.drop.text": "Dropout in training mode sets each attention weight to 0 with "
    "probability p and scales the kept ones by $1/(1-p)$, so that every weight keeps its "
    "expected value. In eval mode (inference) it does nothing. Shown: one head of the encoder's "
    "self-attention; the model above runs in eval mode.",
    "encoder_decoder.drop.p": "Dropout probability p",
    "encoder_decoder.drop.p_help": "Vaswani et al. 2017 (§5.4) use p = 0.1 on each sub-layer's "
    "output, before the residual add, and on the sums of the embeddings and positional "
    "encodings. Dropout on the attention weights, shown here, comes from implementations "
    "(tensor2tensor, PyTorch), not the paper.",
    "encoder_decoder.drop.resample": "Draw a new dropout mask",
    "encoder_decoder.drop.fig_eval": "Eval mode: the weights as they are",
    "encoder_decoder.drop.fig_train": "Training mode, p = {p}",
    "encoder_decoder.drop.dropped_cell": "dropped: weight 0",
    "encoder_decoder.drop.crossed": "Crossed out: the weights dropout set to 0 (the others are scaled up by 1/(1 − p)).",
    "encoder_decoder.drop.stats": "Dropped **{dropped}** of {total} weights ({frac}; each one "
    "with probability p = {p}). Every kept weight is multiplied by $1/(1-p)$ = {scale} "
    "(training ÷ eval on the kept weights, computed: {lo} … {hi}). The rows no longer sum to 1: "
    "in training mode from {rs_lo} to {rs_hi}; in eval mode {ev_lo} … {ev_hi}.",
    "encoder_decoder.drop.p_zero": "With p = 0 nothing is dropped: training mode and eval mode "
    "give the same weights.",
    "encoder_decoder.drop.seed": "Dropout mask seed {seed} (head {h}, layer {layer}); the button "
    "draws a new mask.",
    "encoder_decoder.drop.table": "Row sums per query",
    "encoder_decoder.drop.col_eval": "eval",
    "encoder_decoder.drop.col_train": "training",
    "encoder_decoder.drop.col_dropped": "dropped",
    # the page's last paragraph: what the tests check
    "encoder_decoder.checked.title": "What is checked against PyTorch",
    "encoder_decoder.checked.text": "This app's tests run its layers and PyTorch's on the same "
    "weights: `EncoderLayer` and `DecoderLayer` against `torch.nn.TransformerEncoderLayer` and "
    "`TransformerDecoderLayer` (post-norm and pre-norm, ReLU and GELU, with and without "
    "padding, eval mode), the stacks against `nn.TransformerEncoder` and "
    "`nn.TransformerDecoder`, and every attention's weights against `nn.MultiheadAttention`. "
    "LayerNorm and BatchNorm statistics are checked against `F.layer_norm` and `F.batch_norm`; "
    "dropout drops about p of the weights, scales the rest by 1/(1−p) and does nothing in eval "
    "mode. Where `nn.MultiheadAttention` returns NaN (a query with no key left), this app "
    "returns a row of zeros. The figures on this page are checked against the core's numbers.",
}

ZH = {
    "encoder_decoder.title": "Transformer 内部:编码器与解码器",
    "encoder_decoder.intro": "多头注意力在一个小型编码器-解码器 Transformer 中的工作方式,该模型由"
    "本应用的注意力层搭建。**编码器**读取源句 (侧边栏中的句子);**解码器**读取下方的目标句,每个目标"
    "词元只能看到它自己和它之前的词元,并通过**交叉注意力**查看编码器的输出。权重是随机的 (种子 {seed}),"
    "未经训练:本页展示的是每种注意力可以看向哪里,而不是它学到了什么。",
    "encoder_decoder.settings_note": "模型大小、头数、种子、分词器和位置编码来自侧边栏。侧边栏中的缩放、"
    "掩码和评分函数设置属于其他页面:Transformer 使用缩放点积注意力,因果掩码只用于解码器的自注意力。",
    "encoder_decoder.no_pe": "模型大小、头数、种子和分词器来自侧边栏。侧边栏中关闭了位置编码,因此词元"
    "只以词向量进入模型。侧边栏中的缩放、掩码和评分函数设置属于其他页面:Transformer 使用缩放点积注意力,"
    "因果掩码只用于解码器的自注意力。",
    "encoder_decoder.target": "目标句 (解码器读取的句子)",
    "encoder_decoder.target_help": "训练时解码器一次读取整个目标句 (teacher forcing);因果掩码使每个"
    "位置看不到后面的位置。分词方式与侧边栏中的句子相同。",
    "encoder_decoder.target.empty": "在上方输入一个目标句,查看解码器。",
    "encoder_decoder.target.no_tokens": "目标句中没有词元 (只有空格或不可见字符)。请至少输入一个词。",
    "encoder_decoder.target.truncated": "目标句共有 {n_total} 个词元;本页只使用前 {limit} 个。",
    "encoder_decoder.layers": "层数 N (编码器与解码器)",
    "encoder_decoder.layers_help": "编码器和解码器各自堆叠 N 个结构相同的层 (每层有自己的权重);"
    "原论文使用 N = 6。",
    "encoder_decoder.layer": "显示的层",
    "encoder_decoder.layer_option": "{l}",
    "encoder_decoder.layer_help": "本页显示哪一层的注意力;0 是第一层。每个解码器层的交叉注意力都读取"
    "编码器的最终输出。",
    "encoder_decoder.pre_norm": "前置归一化 (Pre-norm)",
    "encoder_decoder.pre_norm_help": "关闭:后置归一化 (post-norm),与原论文相同:"
    "x → LayerNorm(x + Sublayer(x))。打开:前置归一化 (pre-norm),与多数新模型相同:"
    "x → x + Sublayer(LayerNorm(x)),最后一层之后再加一个 LayerNorm。",
    "encoder_decoder.part": "查看内部",
    "encoder_decoder.part.attention": "三种注意力",
    "encoder_decoder.part.padding": "填充 (Padding)",
    "encoder_decoder.part.addnorm": "残差与归一化 (Add & Norm)",
    "encoder_decoder.part.dropout": "Dropout",
    "encoder_decoder.head": "头",
    "encoder_decoder.head_option": "h = {h}",
    "encoder_decoder.model": "模型:d_model = {d_model},{n_heads} 个头,每个头 d_k = {d_k} 维,"
    "前馈网络宽度 {d_ff},编码器和解码器各 N = {n} 层。",
    "encoder_decoder.box.encoder": "编码器",
    "encoder_decoder.box.decoder": "解码器",
    "encoder_decoder.box.inputs": "源句词元",
    "encoder_decoder.box.outputs": "目标句词元",
    "encoder_decoder.box.self_attn": "多头自注意力",
    "encoder_decoder.box.masked_attn": "掩码多头自注意力",
    "encoder_decoder.box.cross_attn": "多头交叉注意力",
    "encoder_decoder.box.ff": "前馈网络",
    "encoder_decoder.box.add_norm": "残差与归一化 (Add & Norm)",
    "encoder_decoder.box.add": "残差相加 (Add)",
    "encoder_decoder.box.norm": "LayerNorm",
    "encoder_decoder.box.linear": "线性层 → 词表上的得分",
    "encoder_decoder.box.repeat": "× {n}",
    "encoder_decoder.diagram_post": "一个编码器层和一个解码器层,后置归一化 (每个子层之后接 Add & Norm);"
    "每个堆栈把它的层重复 {n} 次。橙色:下方显示的部分,位于第 {layer} 层。两个堆栈之间的箭头把编码器的"
    "输出送到每个解码器层的交叉注意力。",
    "encoder_decoder.diagram_pre": "一个编码器层和一个解码器层,前置归一化 (先 LayerNorm,再子层,再残差"
    "相加);每个堆栈把它的层重复 {n} 次,最后再接一个 LayerNorm。橙色:下方显示的部分,位于第 {layer} 层。"
    "两个堆栈之间的箭头把编码器的输出送到每个解码器层的交叉注意力。",
    "encoder_decoder.weight": "权重",
    "encoder_decoder.query": "查询",
    "encoder_decoder.key": "键",
    "encoder_decoder.token": "词元",
    "encoder_decoder.feature": "特征",
    "encoder_decoder.value": "值",
    "encoder_decoder.position": "位置",
    "encoder_decoder.attn.text": "有编码器和解码器的 Transformer 有三种注意力,每种一个标签页:编码器的"
    "词元彼此关注,解码器的词元在因果掩码下彼此关注,解码器的词元关注编码器的输出。",
    "encoder_decoder.view.encoder": "编码器自注意力",
    "encoder_decoder.view.decoder": "解码器掩码自注意力",
    "encoder_decoder.view.cross": "交叉注意力",
    "encoder_decoder.enc.title": "编码器自注意力 (第 {layer} 层)",
    "encoder_decoder.enc.caption": "每个源句词元 (行,查询) 都可以关注所有源句词元 (列,键):每个头"
    "{S} × {S},没有掩码。每一行的和为 1 (计算值:{lo} … {hi})。",
    "encoder_decoder.dec.title": "解码器掩码自注意力 (第 {layer} 层)",
    "encoder_decoder.dec.caption": "每个目标句词元只能关注它自己和它之前的词元 (每个头 {T} × {T}),"
    "这样训练时任何位置都看不到它要预测的词。因果掩码 (左) 给对角线及其下方的得分加 0,给对角线上方加 −∞,"
    "因此 softmax 之后对角线上方的每个权重都恰好为 0 (计算出的最大值:{upper})。",
    "encoder_decoder.dec.mask_title": "因果掩码",
    "encoder_decoder.dec.mask_value": "加到得分上",
    "encoder_decoder.cross.title": "交叉注意力 (第 {layer} 层)",
    "encoder_decoder.cross.caption": "解码器的查询 (目标句词元,行) 关注编码器的输出 (源句词元,列):"
    "每个头 {T} × {S},两句长度不同时不是方阵。这里没有因果掩码:每个目标句词元都可以看整个源句。"
    "每一行的和为 1 (计算值:{lo} … {hi})。",
    "encoder_decoder.pad.text": "一个批次 (batch) 中的句子长度不同,较短的句子要用填充补到最长句子的"
    "长度。填充掩码 (填充处为 1) 在 softmax 之前把填充键的得分设为 −∞,因此没有查询会关注它们。这里的"
    "批次:你的句子 (句子 1) 和它的前 n 个词元 (句子 2),经过编码器。",
    "encoder_decoder.pad.cut": "句子 2:你的句子的前 n 个词元",
    "encoder_decoder.pad.cut_help": "批次中较短的句子;它被填充到你的句子的长度。",
    "encoder_decoder.pad.one_token": "你的句子只有一个词元:没有更短的句子可以填充。请在侧边栏输入更长的"
    "句子。",
    "encoder_decoder.pad.token": "[PAD]",
    "encoder_decoder.pad.sentence": "句子 {b} ({n} 个词元)",
    "encoder_decoder.pad.mask_title": "填充掩码:{P} 个位置中有 {n} 个是填充",
    "encoder_decoder.pad.mask_value": "填充",
    "encoder_decoder.pad.none": "这个批次中没有句子需要填充。",
    "encoder_decoder.pad.keys": "在这个批次中,每个头的每个查询给填充键的权重都恰好为 0 (两个句子、"
    "所有头中计算出的最大值:**{pad_max}**)。句子 {b} 的真实词元得到的权重与它单独运行 (不填充) 时"
    "相同 (最大差值:{diff})。下图:头 {h},第 {layer} 层。",
    "encoder_decoder.pad.fig_keys": "句子 {b}:屏蔽填充键",
    "encoder_decoder.pad.fig_queries": "句子 {b}:同时屏蔽填充查询",
    "encoder_decoder.pad.empty_rows": "左:填充位置自己的行和其他行一样计算 (它们关注真实词元),之后被"
    "忽略。右:同时屏蔽填充查询后,它们没有任何可关注的键。对一整行 −∞ 做普通 softmax 得到 0/0 = NaN:"
    "在这些得分上会得到 **{nan_rows}** 行 NaN,按所有头计 (PyTorch 的 `nn.MultiheadAttention` 在这里也返回 NaN)。"
    "本应用的注意力把这样的行返回为全 0:**{empty}** 行没有键,它们的最大权重为 {empty_max},总共有 "
    "{nans} 个 NaN 值。",
    "encoder_decoder.norm.text_post": "编码器第 {layer} 层自注意力之后的 **Add & Norm**:残差和 "
    "$x + \\mathrm{{SelfAttention}}(x)$ (Add),然后是 LayerNorm (Norm)。行是填充批次中的真实词元 "
    "(先句子 1,后句子 2),列是特征。",
    "encoder_decoder.norm.text_pre": "在前置归一化中,编码器第 {layer} 层的自注意力读取 "
    "$\\mathrm{{LayerNorm}}(x)$,残差和 $x + \\mathrm{{SelfAttention}}(\\mathrm{{LayerNorm}}(x))$ "
    "(Add) 不经归一化留在残差流上;这里显示的 LayerNorm 是为前馈网络准备输入的那一个。行是填充批次中的"
    "真实词元 (先句子 1,后句子 2),列是特征。",
    "encoder_decoder.norm.batch": "句子 2 是你的句子的前 {n} 个词元 (见“填充”):共 {N} 个真实词元;"
    "填充不计入。",
    "encoder_decoder.norm.batch_one": "句子 2 是你的句子的第一个词元 (见“填充”):共 {N} 个真实"
    "词元;填充不计入。",
    "encoder_decoder.batch_row": "{b} · {token}",
    "encoder_decoder.norm.mean": "均值",
    "encoder_decoder.norm.std": "标准差",
    "encoder_decoder.norm.fig_add": "Add:x + SelfAttention(x)",
    "encoder_decoder.norm.fig_add_pre": "Add:x + SelfAttention(LayerNorm(x))",
    "encoder_decoder.norm.fig_ln": "LayerNorm:每个词元各自归一化",
    "encoder_decoder.norm.ln_axis": "沿 → 归一化:每一行,在它的 {C} 个特征上",
    "encoder_decoder.norm.ln_stats": "**LayerNorm** 对每个词元 (行) 在它的 {C} 个特征上归一化:每一行"
    "的均值变为 0 (计算出的最大 |均值|:{mean}),标准差变为 1 (计算值:{std_lo} … {std_hi};分母中的 ε "
    "使它略小于 1)。列没有被归一化:特征均值从 {f_lo} 到 {f_hi}。模型自己的 LayerNorm (缩放 γ = 1,"
    "平移 β = 0,与初始化相同) 给出相同的数值 (最大差值 {diff})。",
    "encoder_decoder.norm.fig_bn": "BatchNorm:每个特征在整个批次上归一化",
    "encoder_decoder.norm.bn_axis": "沿 ↓ 归一化:每一列,在 {N} 个词元上",
    "encoder_decoder.norm.bn_stats": "**BatchNorm** 对每个特征 (列) 在批次的 {N} 个真实词元上归一化:"
    "每一列的均值变为 0 (计算出的最大 |均值|:{mean}),标准差变为 1 (计算值:{std_lo} … {std_hi})。"
    "行没有被归一化:词元均值从 {t_lo} 到 {t_hi}。",
    "encoder_decoder.norm.constant": "所有值都相等的特征或词元没有可归一化的内容:它的输出为 0,标准差"
    "为 0。",
    "encoder_decoder.norm.why": "训练时,BatchNorm 给一个词元的数值取决于批次中的其他句子 (改变"
    "句子 2,看它们变化);LayerNorm 不会。BatchNorm 评估时用的是运行统计量,与训练时的批次统计量不"
    "同;它把长度不同的句子及其填充混进统计量;批次小时统计量噪声大 (Shen 等 2020,§3)。"
    "LayerNorm 在训练和推理时做完全相同的计算 (Ba 等 2016,§1):这就是 Transformer 使用它的原因"
    "。",
    "encoder_decoder.drop.text": "训练模式下的 dropout 以概率 p 把每个注意力权重置为 0,并把保留的"
    "权重乘以 $1/(1-p)$,使每个权重的期望值不变。在评估模式 (推理) 下它什么也不做。显示:编码器自注意力"
    "的一个头;上方的模型运行在评估模式。",
    "encoder_decoder.drop.p": "Dropout 概率 p",
    "encoder_decoder.drop.p_help": "Vaswani 等 2017 (§5.4) 使用 p = 0.1,作用于每个子层的输出 ("
    "在残差相加之前),以及词向量与位置编码之和。这里演示的作用于注意力权重的 dropout 来自实现 "
    "(tensor2tensor、PyTorch),而不是论文。",
    "encoder_decoder.drop.resample": "重新抽取 dropout 掩码",
    "encoder_decoder.drop.fig_eval": "评估模式:权重保持不变",
    "encoder_decoder.drop.fig_train": "训练模式,p = {p}",
    "encoder_decoder.drop.dropped_cell": "已丢弃:权重为 0",
    "encoder_decoder.drop.crossed": "打叉的格子:被 dropout 置为 0 的权重 (其余的放大为 1/(1 − p) 倍)。",
    "encoder_decoder.drop.stats": "{total} 个权重中丢弃了 **{dropped}** 个 ({frac};每个权重以概率 "
    "p = {p} 被丢弃)。每个保留的权重乘以 $1/(1-p)$ = {scale} (保留权重的训练值 ÷ 评估值,计算值:"
    "{lo} … {hi})。各行的和不再是 1:训练模式下从 {rs_lo} 到 {rs_hi};评估模式下为 {ev_lo} … {ev_hi}。",
    "encoder_decoder.drop.p_zero": "p = 0 时什么也不丢弃:训练模式和评估模式给出相同的权重。",
    "encoder_decoder.drop.seed": "Dropout 掩码种子 {seed} (头 {h},第 {layer} 层);按钮会抽取新的掩码。",
    "encoder_decoder.drop.table": "每个查询的行和",
    "encoder_decoder.drop.col_eval": "评估",
    "encoder_decoder.drop.col_train": "训练",
    "encoder_decoder.drop.col_dropped": "丢弃数",
    "encoder_decoder.checked.title": "与 PyTorch 对照检查了什么",
    "encoder_decoder.checked.text": "本应用的测试在相同权重上运行它自己的层和 PyTorch 的层:"
    "`EncoderLayer` 和 `DecoderLayer` 对照 `torch.nn.TransformerEncoderLayer` 和 "
    "`TransformerDecoderLayer` (后置与前置归一化,ReLU 与 GELU,有无填充,评估模式),整个堆栈对照 "
    "`nn.TransformerEncoder` 和 `nn.TransformerDecoder`,每种注意力的权重对照 `nn.MultiheadAttention`。"
    "LayerNorm 和 BatchNorm 的统计量对照 `F.layer_norm` 和 `F.batch_norm`;dropout 丢弃约 p 比例的权重,"
    "把其余权重乘以 1/(1−p),在评估模式下什么也不做。在 `nn.MultiheadAttention` 返回 NaN 的地方 (一个"
    "没有任何键的查询),本应用返回全 0 的一行。本页的图与核心计算的数值相互核对。",
}
