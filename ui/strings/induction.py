"""The Induction page: a GPT-style decoder trained live; induction heads forming."""

EN = {
    "induction.title": "Watch induction heads form",
    "induction.intro": "Two small GPT-style decoders (attention only, {d_model} dimensions, "
    "{n_heads} heads per layer) learn to continue random letter sequences in which a chunk is "
    "repeated later, at a random distance (as little as 2 letters: the repeat may start before "
    "the chunk ends, as in xyzxyzx). Inside the repeat, every letter after the first can "
    "be predicted: find the earlier copy of the current letter and copy the letter that "
    "followed it (every letter is random, so a letter may also have come earlier by chance: "
    "a few predictions stay uncertain). Olsson et al. (2022) showed that this takes two "
    "layers: a **previous-token head** in layer 0 writes into each position which letter came "
    "before it, and an "
    "**induction head** in layer 1 looks for the position whose previous letter is the current "
    "one. The 1-layer model is the control: it cannot build that circuit.",
    "induction.sidebar_note": "This page has its own models; the sidebar's sentence and model "
    "settings are not used here.",
    "induction.steps": "Steps",
    "induction.steps_help": "Optimiser steps for each of the two models, each on a fresh batch "
    "of {batch} sequences.",
    "induction.seed": "Seed",
    "induction.seed_help": "Seeds the initial weights and the training data (0 to {max}).",
    "induction.start": "Train both",
    "induction.start_help": "Train the 1-layer and the 2-layer model side by side (replaces the "
    "current pair).",
    "induction.stop": "Stop",
    "induction.stop_help": "Stop both models here and keep them as they are.",
    "induction.name.1": "1 layer (control)",
    "induction.name.2": "2 layers",
    "induction.probe.title": "The probe sequence",
    "induction.probe.text": "The probe is `{probe}`: the chunk `qwertyui` comes twice. An "
    "induction head, reading the second `q`, looks at the `w` after the first `q`: a stripe "
    "one step to the right of the diagonal of earlier copies.",
    "induction.untrained": "Before training, the 2-layer model's attention on the probe (layer "
    "{layer}): nothing to see yet but noise. Press **Train both**.",
    "induction.layer": "Layer",
    "induction.head_title_score": "head {h} · {kind} {score}",
    "induction.weight": "weight",
    "induction.head": "Head",
    "induction.head_best": "highest score (now head {h})",
    "induction.probe_head": "Layer {layer}, {head}",
    "induction.query": "query (predicts the next symbol)",
    "induction.key": "key (this or an earlier symbol)",
    "induction.live.title": "Training",
    "induction.progress": "Step {step} of {steps} · accuracy on the repeats: 1 layer {acc1}, "
    "2 layers {acc2}",
    "induction.progress_start": "Step 0 of {steps}: starting…",
    "induction.fig.live": "Loss and accuracy on the repeats (each training batch)",
    "induction.axis.step": "step",
    "induction.axis.loss": "loss",
    "induction.axis.acc": "accuracy on the repeats",
    "induction.result.title": "The trained models",
    "induction.done": "{steps_done} steps in {wall} s. Next-token accuracy on the predictable "
    "letters of 1000 fresh sequences: **{acc2}** with 2 layers, **{acc1}** with 1 layer.",
    "induction.stored": "A finished run, kept with the app: the pair the defaults train "
    "({steps} steps, seed {seed}), trained once in advance so that the page opens on it. "
    "Next-token accuracy on the predictable letters of 1000 fresh sequences: **{acc2}** with 2 "
    "layers, **{acc1}** with 1 layer. Scrub its snapshots below, or press **Train both** to "
    "watch a pair form live.",
    "induction.stopped": "Stopped after {steps_done} of {steps} steps.",
    "induction.scores.title": "Head scores over training",
    "induction.scores.text": "A head's score is the mean weight it puts on the pattern's target "
    "(the model of TransformerLens's head detector): the **previous-token** score is the weight "
    "on position i − 1; the **induction** score the weight on the letter after an earlier "
    "occurrence of the current letter. If a model builds the circuit of Olsson et al., a layer-0 "
    "head rises on the first and a layer-1 head on the second, with the jump in accuracy; the "
    "curves show whether this one did (a model can also find other ways to predict the repeat).",
    "induction.scores.previous": "Previous-token score, layer 0 heads",
    "induction.scores.induction": "Induction score, layer 1 heads",
    "induction.scores.value": "score",
    "induction.scores.name": "L{layer} head {h}",
    "induction.kind.previous": "previous",
    "induction.kind.induction": "induction",
    "induction.kind.duplicate": "duplicate",
    "induction.snap": "Snapshot (step)",
    "induction.snap.caption": "Step {step}: accuracy {acc} on the evaluation sequences.",
    "induction.probe_attention": "The probe's attention in the 2-layer model, step by step",
    "induction.try.title": "Predict the next letter",
    "induction.try.label": "A sequence of letters a–z",
    "induction.try.help": "Up to {max_len} letters a–z; spaces are ignored. Repeat a chunk to see "
    "the induction head copy it.",
    "induction.try.empty": "Type some letters a–z.",
    "induction.try.unknown": "Only the letters a–z are in this model's vocabulary; these are not:",
    "induction.try.length": "The model reads at most {max_len} letters; this has {n}.",
    "induction.try.top": "Top {k} next letters after “{last}”",
    "induction.try.value": "probability",
    "induction.try.parts": "Where the logit of “{token}” comes from",
    "induction.try.parts_text": "With the final LayerNorm's scale frozen at its value on this "
    "input, the logit of the top letter is exactly the sum of direct contributions, each read "
    "through that letter's unembedding: the current input letter's token embedding plus its "
    "position embedding, each head's output, and the biases. Here they add up to **{total}**; "
    "the model's logit is **{logit}**.",
    "induction.try.part.embedding": "embedding",
    "induction.try.part.biases": "biases",
    "induction.try.sum": "sum = logit",
    "induction.try.value_parts": "contribution to the logit",
    "induction.sink.title": "The attention sink",
    "induction.sink.text": "The mean weight each head puts on position 0 (over all later "
    "queries): here `<bos>`, in MiniLM `[CLS]`. Softmax weights must sum to 1, so a head with "
    "nothing useful to read parks its weight on a token that is always there, usually the "
    "first (Xiao et al. 2023, 'attention sinks').",
    "induction.sink.ours": "This 2-layer model: weight on <bos>",
    "induction.sink.minilm": "MiniLM: weight on [CLS]",
    "induction.sink.minilm_sentence": "MiniLM's input: “{sentence}”",
    "induction.sink.minilm_missing": "MiniLM's weights are not installed here.",
    "induction.sink.value": "share on position 0",
    "induction.axis.layer": "layer",
    "induction.axis.head": "head",
}

ZH = {
    "induction.title": "观察归纳头的形成",
    "induction.intro": "两个小型 GPT 式解码器（只有注意力，{d_model} 维，每层 {n_heads} 个头）"
    "学习续写随机字母序列；序列中的一段会在随后随机的距离处重复出现（距离最短为 2 个字母：重复段可以"
    "在原段结束之前就开始，例如 xyzxyzx）。在重复段里，第一个字母之后的"
    "每个字母都可以预测：找到当前字母较早的那次出现，复制紧跟在它后面的字母（每个字母都是随机的，"
    "某个字母也可能碰巧在别处出现过，所以少数预测没有把握）。Olsson 等人（2022）"
    "指出这需要两层：第 0 层的**前一词元头**把每个位置前面的字母写进该位置，第 1 层的**归纳头**"
    "寻找“前一个字母等于当前字母”的位置。1 层模型是对照组：它搭不出这条回路。",
    "induction.sidebar_note": "本页有自己的模型；侧边栏的句子和模型设置在这里不使用。",
    "induction.steps": "步数",
    "induction.steps_help": "两个模型各自的优化步数，每步使用新的一批 {batch} 个序列。",
    "induction.seed": "随机种子",
    "induction.seed_help": "决定初始权重和训练数据（0 到 {max}）。",
    "induction.start": "同时训练",
    "induction.start_help": "并排训练 1 层和 2 层模型（替换当前这一对）。",
    "induction.stop": "停止",
    "induction.stop_help": "让两个模型停在这里，保留当前状态。",
    "induction.name.1": "1 层（对照）",
    "induction.name.2": "2 层",
    "induction.probe.title": "探针序列",
    "induction.probe.text": "探针是 `{probe}`：片段 `qwertyui` 出现两次。归纳头读到第二个 `q` "
    "时，会看第一个 `q` 后面的 `w`：在较早副本的对角线右边一格形成一条斜纹。",
    "induction.untrained": "训练之前，2 层模型在探针上的注意力（第 {layer} 层）：还只是噪声。"
    "请按**同时训练**。",
    "induction.layer": "层",
    "induction.head_title_score": "头 {h} · {kind} {score}",
    "induction.weight": "权重",
    "induction.head": "头",
    "induction.head_best": "得分最高（现在是头 {h}）",
    "induction.probe_head": "第 {layer} 层，{head}",
    "induction.query": "查询（预测下一个符号）",
    "induction.key": "键（这个或更早的符号）",
    "induction.live.title": "训练中",
    "induction.progress": "第 {step} / {steps} 步 · 重复段上的准确率：1 层 {acc1}，2 层 {acc2}",
    "induction.progress_start": "第 0 / {steps} 步：开始……",
    "induction.fig.live": "损失与重复段上的准确率（每个训练批次）",
    "induction.axis.step": "步",
    "induction.axis.loss": "损失",
    "induction.axis.acc": "重复段上的准确率",
    "induction.result.title": "训练好的模型",
    "induction.done": "{steps_done} 步，用时 {wall} 秒。在 1000 个新序列的可预测字母上的下一词元"
    "准确率：2 层 **{acc2}**，1 层 **{acc1}**。",
    "induction.stored": "一次已完成的训练，随应用一起保存：就是默认设置训练出的那一对模型（{steps} 步，"
    "种子 {seed}），事先训练好，页面一打开就能看到。在 1000 个新序列的可预测字母上的下一词元准确率："
    "2 层 **{acc2}**，1 层 **{acc1}**。可以在下面拖动查看各个快照，或按 **同时训练** 实时观看一对模型的形成。",
    "induction.stopped": "在 {steps} 步中的第 {steps_done} 步停止。",
    "induction.scores.title": "训练过程中的头分数",
    "induction.scores.text": "一个头的分数是它放在该模式目标位置上的平均权重（参照 TransformerLens "
    "的头检测器）：**前一词元**分数是放在位置 i − 1 上的权重；**归纳**分数是放在当前字母较早出现"
    "之后那个字母上的权重。如果模型搭出了 Olsson 等人描述的回路，第 0 层会有一个头在前者上升起、"
    "第 1 层会有一个头在后者上升起，同时准确率跃升；曲线显示这个模型是否如此（模型也可能找到别的办法"
    "预测重复段）。",
    "induction.scores.previous": "前一词元分数，第 0 层各头",
    "induction.scores.induction": "归纳分数，第 1 层各头",
    "induction.scores.value": "分数",
    "induction.scores.name": "第 {layer} 层 头 {h}",
    "induction.kind.previous": "前一词元",
    "induction.kind.induction": "归纳",
    "induction.kind.duplicate": "重复",
    "induction.snap": "快照（步）",
    "induction.snap.caption": "第 {step} 步：评估序列上的准确率 {acc}。",
    "induction.probe_attention": "2 层模型在探针上的注意力，逐个快照",
    "induction.try.title": "预测下一个字母",
    "induction.try.label": "由字母 a–z 组成的序列",
    "induction.try.help": "最多 {max_len} 个字母 a–z；空格会被忽略。重复一段，看归纳头如何复制它。",
    "induction.try.empty": "请输入一些字母 a–z。",
    "induction.try.unknown": "这个模型的词表里只有字母 a–z；以下字符不在其中：",
    "induction.try.length": "模型最多读 {max_len} 个字母；这里有 {n} 个。",
    "induction.try.top": "“{last}” 之后最可能的 {k} 个字母",
    "induction.try.value": "概率",
    "induction.try.parts": "“{token}” 的 logit 从哪里来",
    "induction.try.parts_text": "把最后一个 LayerNorm 的缩放固定为它在这个输入上的值后，最可能"
    "字母的 logit 恰好等于各直接贡献之和，每一项都经过该字母的反嵌入读出：当前输入字母的词元嵌"
    "入加上它的位置嵌入、每个头的输出，以及偏置。这里它们加起来是 **{total}**；模型的 logit 是 "
    "**{logit}**。",
    "induction.try.part.embedding": "嵌入",
    "induction.try.part.biases": "偏置",
    "induction.try.sum": "总和 = logit",
    "induction.try.value_parts": "对 logit 的贡献",
    "induction.sink.title": "注意力汇聚点",
    "induction.sink.text": "每个头放在位置 0 上的平均权重（对所有后面的查询取平均）：这里是 "
    "`<bos>`，在 MiniLM 中是 `[CLS]`。softmax 权重之和必须为 1，所以没有有用信息可读的头会把"
    "权重停放在一个总是存在的词元上，通常是第一个（Xiao 等人 2023，“attention sinks”）。",
    "induction.sink.ours": "这个 2 层模型：放在 <bos> 上的权重",
    "induction.sink.minilm": "MiniLM：放在 [CLS] 上的权重",
    "induction.sink.minilm_sentence": "MiniLM 的输入：“{sentence}”",
    "induction.sink.minilm_missing": "这里没有安装 MiniLM 的权重。",
    "induction.sink.value": "位置 0 上的份额",
    "induction.axis.layer": "层",
    "induction.axis.head": "头",
}
