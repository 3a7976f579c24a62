"""The Train page: a tiny encoder-decoder Transformer trained live on a toy task.

Markdown strings write math as $...$ (KaTeX). Options of select sliders and selectboxes carry
no words where a language switch would otherwise leave the old text showing.
"""

EN = {
    "train.title": "Train a tiny Transformer and watch its heads learn",
    "train.intro": "Train a small encoder-decoder Transformer on a toy task, right here, and "
    "watch its attention heads learn. The examples are made on the fly from the seed: sequences "
    "of {min_len} to {max_len} letters {alphabet}. The same settings always give the same run.",
    "train.sidebar_note": "This page has its own model settings (below); the sentence and the "
    "model settings in the sidebar are not used here.",
    # the settings
    "train.task": "Task",
    "train.task.reverse": "Reverse",
    "train.task.sort": "Sort",
    "train.task.copy": "Copy",
    "train.task_help": "What the model must learn to output for each input sequence.",
    "train.task_desc.reverse": "**Reverse**: `c a b b a g e` → `e g a b b a c`. Each output "
    "symbol is the input symbol at the mirrored position.",
    "train.task_desc.sort": "**Sort**: `c a b b a g e` → `a a b b c e g`. The next output is the "
    "smallest input symbol not yet used, wherever it is.",
    "train.task_desc.copy": "**Copy**: `c a b b a g e` → `c a b b a g e`. Each output symbol is "
    "the input symbol at the same position.",
    "train.d_model": "d_model",
    "train.d_model_help": "The width of every token vector in the model.",
    "train.n_heads": "Heads h (divisors of d_model)",
    "train.n_heads_help": "Each head works in d_k = d_model / h dimensions: only the divisors "
    "of d_model are offered.",
    "train.n_layers": "Layers",
    "train.n_layers_help": "Encoder layers and decoder layers (the same number of each).",
    "train.steps": "Steps",
    "train.steps_help": "Optimiser steps, each on a fresh batch of 64 examples (1 to {max}).",
    "train.lr": "Learning rate",
    "train.lr_help": "Adam's peak learning rate: a linear warm-up, then a cosine decay to a tenth.",
    "train.seed": "Seed",
    "train.seed_help": "Seeds the initial weights and the training data.",
    "train.d_k": "d_k = d_model / h = {d_model} / {n_heads} = **{d_k}** dimensions per head; "
    "a snapshot of the attention every {every} steps.",
    "train.start": "Train",
    "train.start_help": "Train a new model with these settings (it replaces the current one).",
    "train.stop": "Stop",
    "train.stop_help": "Stop training here and keep the model as it is.",
    # while training
    "train.live.title": "Training",
    "train.live.settings": "{task}: d_model {d_model}, {n_heads} heads, {n_layers} layer(s), "
    "{steps} steps, learning rate {lr}, seed {seed}.",
    "train.progress": "Step {step} of {steps} · loss {loss} · exact-sequence accuracy {exact}",
    "train.progress_start": "Step 0 of {steps}: starting…",
    "train.before.title": "Before training: random heads",
    "train.before.text": "The model these settings would train (seed {seed}), before its first "
    "step, on the probe `{probe}`. Its weights are random, so its heads spread their attention "
    "with no pattern a task needs. Press **Train** and compare with the snapshots afterwards.",
    "train.none": "Press **Train** to train a model with these settings. At the defaults the "
    "model learns to reverse sequences in a few hundred steps.",
    # a finished run
    "train.result.title": "The trained model",
    "train.done": "Trained {steps_done} steps in {elapsed} s ({wall} s with drawing). Greedy "
    "decoding gets **{acc}** of {n} fresh examples exactly right.",
    "train.stopped": "Stopped after {steps_done} of {steps} steps.",
    "train.params": "{n} parameters.",
    "train.fig.curves": "Loss and accuracy on each training batch",
    "train.fig.live": "Loss and accuracy so far",
    "train.axis.step": "step",
    "train.axis.loss": "loss (cross-entropy)",
    "train.axis.token_acc": "token accuracy",
    "train.axis.exact_acc": "exact-sequence accuracy",
    "train.axis.accuracy": "accuracy",
    "train.curves_note": "Measured on each step's training batch with teacher forcing (the "
    "decoder reads the correct previous symbols). The slider below picks a snapshot of this "
    "run to look at.",
    "train.download_weights": "Weights (safetensors)",
    "train.download_history": "History (CSV)",
    "train.download_help": "The weights load with `safetensors.torch.load_file`; the settings "
    "and the vocabulary are in the file's metadata. The history has one row per step.",
    # snapshots
    "train.snap.title": "Watch the heads form",
    "train.snap.text": "While it trained, the model's attention on one fixed example, the "
    "probe `{probe}`, was saved every few steps. Move the slider to see the heads at each step.",
    "train.snapshot": "Training step of the snapshot",
    "train.snap.caption": "Step {step} of {steps} trained · loss on the probe {loss} · the model's "
    "answer, one symbol per row: `{prediction}`",
    "train.kind": "Attention",
    "train.kind.cross": "Cross (decoder → encoder)",
    "train.kind.decoder_self": "Decoder, masked self",
    "train.kind.encoder_self": "Encoder self",
    "train.layer": "Layer",
    "train.hint.cross.reverse": "Row t (counting from 0) is the decoder reading `<bos>` and "
    "its first t outputs to predict output t; columns are the input symbols. To reverse, "
    "output t is the source symbol at position n−1−t: a trained head draws an "
    "**anti-diagonal**. Beside each head's number: the mean weight its rows put on that "
    "position.",
    "train.hint.cross.copy": "Row t (counting from 0) is the decoder reading `<bos>` and its "
    "first t outputs to predict output t; columns are the input symbols. To copy, output t is "
    "the source symbol at position t: a trained head draws a **diagonal**. Beside each head's "
    "number: the mean weight its rows put on that position.",
    "train.hint.cross.sort": "Row t (counting from 0) is the decoder reading `<bos>` and its "
    "first t outputs to predict output t; columns are the input symbols. Sorting has no fixed "
    "position: a head must find the next symbol in alphabet order wherever it is.",
    "train.hint.decoder_self": "The decoder's masked self-attention: row t sees only keys 0 to "
    "t (the weights above the diagonal are exactly 0).",
    "train.hint.encoder_self": "The encoder's self-attention over the input symbols: every "
    "symbol sees every symbol.",
    "train.weight": "weight",
    "train.head_title": "head {h}",
    "train.head_title_share": "head {h} · {share}",
    "train.align.title": "How the cross-attention heads align",
    "train.align.text.reverse": "For each cross-attention head: the mean weight its rows put "
    "on the mirrored source position, at every snapshot. A head that has learned to reverse "
    "climbs towards 1.",
    "train.align.text.copy": "For each cross-attention head: the mean weight its rows put on "
    "the same source position, at every snapshot. A head that has learned to copy climbs "
    "towards 1.",
    "train.align.value": "weight on the target position",
    "train.align.name": "layer {layer}, head {h}",
    # the try-it box
    "train.try.title": "Try it",
    "train.try.label": "Your sequence",
    "train.try.help": "1 to {max_len} of the symbols {alphabet}, with or without spaces. The "
    "model was trained on {min_len} to {max_len} symbols.",
    "train.try.empty": "Type a sequence of the symbols {alphabet}.",
    "train.try.unknown": "Use only the symbols {alphabet}. These are not among them:",
    "train.try.length": "At most {max_len} symbols, please: this has {n}.",
    "train.try.answer": "Input `{input}` → model `{output}` · expected `{expected}`",
    "train.try.right": "Right.",
    "train.try.wrong": "Wrong.",
    "train.try.empty_output": "(nothing)",
    "train.try.outside": "The model never saw a sequence of {n} symbols in training (only "
    "{min_len} to {max_len}): this shows how it generalises.",
    "train.try.outside_one": "The model never saw a sequence of 1 symbol in training (only "
    "{min_len} to {max_len}): this shows how it generalises.",
    "train.try.attention": "The attention that made the answer: the decoder reads its own "
    "answer one symbol at a time (row t, counting from 0, predicts output t).",
}

ZH = {
    "train.title": "训练一个微型 Transformer,观察它的注意力头如何学习",
    "train.intro": "就在这里,在一个玩具任务上训练一个小型编码器-解码器 Transformer,观察它的"
    "注意力头如何学习。样本由随机种子即时生成:由字母 {alphabet} 组成、长度为 {min_len} 到 "
    "{max_len} 的序列。相同的设置总是得到相同的训练过程。",
    "train.sidebar_note": "本页有自己的模型设置(见下方);侧边栏中的句子和模型设置在这里不使用。",
    "train.task": "任务",
    "train.task.reverse": "反转",
    "train.task.sort": "排序",
    "train.task.copy": "复制",
    "train.task_help": "模型需要学会对每个输入序列输出什么。",
    "train.task_desc.reverse": "**反转**:`c a b b a g e` → `e g a b b a c`。每个输出符号是镜像"
    "位置上的输入符号。",
    "train.task_desc.sort": "**排序**:`c a b b a g e` → `a a b b c e g`。下一个输出是尚未用过"
    "的最小输入符号,无论它在哪个位置。",
    "train.task_desc.copy": "**复制**:`c a b b a g e` → `c a b b a g e`。每个输出符号是相同"
    "位置上的输入符号。",
    "train.d_model": "d_model",
    "train.d_model_help": "模型中每个词元向量的宽度。",
    "train.n_heads": "头数 h (d_model 的因数)",
    "train.n_heads_help": "每个头在 d_k = d_model / h 维中工作:只提供 d_model 的因数。",
    "train.n_layers": "层数",
    "train.n_layers_help": "编码器层数和解码器层数(两者相同)。",
    "train.steps": "步数",
    "train.steps_help": "优化步数,每步使用一批新的 64 个样本(1 到 {max})。",
    "train.lr": "学习率",
    "train.lr_help": "Adam 的峰值学习率:先线性预热,再余弦衰减到十分之一。",
    "train.seed": "随机种子",
    "train.seed_help": "决定初始权重和训练数据。",
    "train.d_k": "d_k = d_model / h = {d_model} / {n_heads} = **{d_k}**,即每个头的维度;"
    "每 {every} 步保存一次注意力快照。",
    "train.start": "训练",
    "train.start_help": "用这些设置训练一个新模型(它会替换当前模型)。",
    "train.stop": "停止",
    "train.stop_help": "在此停止训练,保留模型的当前状态。",
    "train.live.title": "训练中",
    "train.live.settings": "{task}:d_model {d_model},{n_heads} 个头,{n_layers} 层,{steps} 步,"
    "学习率 {lr},随机种子 {seed}。",
    "train.progress": "第 {step} 步,共 {steps} 步 · 损失 {loss} · 整句准确率 {exact}",
    "train.progress_start": "第 0 步,共 {steps} 步:正在开始…",
    "train.before.title": "训练之前:随机的注意力头",
    "train.before.text": "这些设置将要训练的模型 (种子 {seed}) 在第一步之前对探针 `{probe}` 的注意力。"
    "它的权重是随机的,所以各个头的注意力没有任务所需的模式。按 **训练**,再与训练后的快照比较。",
    "train.none": "按 **训练** 用这些设置训练一个模型。在默认设置下,模型几百步就能学会反转序列。",
    "train.result.title": "训练好的模型",
    "train.done": "训练了 {steps_done} 步,用时 {elapsed} 秒(含绘图 {wall} 秒)。贪心解码在 {n} "
    "个新样本上整句完全正确的比例为 **{acc}**。",
    "train.stopped": "在第 {steps_done} 步停止(计划 {steps} 步)。",
    "train.params": "共 {n} 个参数。",
    "train.fig.curves": "每个训练批次上的损失和准确率",
    "train.fig.live": "目前为止的损失和准确率",
    "train.axis.step": "步",
    "train.axis.loss": "损失 (交叉熵)",
    "train.axis.token_acc": "词元准确率",
    "train.axis.exact_acc": "整句准确率",
    "train.axis.accuracy": "准确率",
    "train.curves_note": "在每一步的训练批次上使用教师强制(解码器读入正确的前一个符号)测得;"
    "下方的滑块选择要查看的本次训练的快照。",
    "train.download_weights": "权重 (safetensors)",
    "train.download_history": "训练记录 (CSV)",
    "train.download_help": "权重可用 `safetensors.torch.load_file` 读取;设置和词表在文件的元数据"
    "中。训练记录每步一行。",
    "train.snap.title": "观察注意力头的形成",
    "train.snap.text": "训练过程中,每隔几步保存一次模型在一个固定样本(探针 `{probe}`)上的"
    "注意力。移动滑块,查看每一步的注意力头。",
    "train.snapshot": "快照所在的训练步",
    "train.snap.caption": "第 {step} 步,共训练了 {steps} 步 · 探针上的损失 {loss} · 模型的回答"
    "(每行一个符号):`{prediction}`",
    "train.kind": "注意力",
    "train.kind.cross": "交叉注意力 (解码器 → 编码器)",
    "train.kind.decoder_self": "解码器掩码自注意力",
    "train.kind.encoder_self": "编码器自注意力",
    "train.layer": "层",
    "train.hint.cross.reverse": "第 t 行 (从 0 数起) 是解码器读入 `<bos>` 和它的前 t 个输出,用"
    "来预测输出 t;列是输入符号。要反转,输出 t 是源位置 n−1−t 上的符号:训练好的头会画出一条**"
    "反对角线**。每个头编号旁是它各行放在该位置上的平均权重。",
    "train.hint.cross.copy": "第 t 行 (从 0 数起) 是解码器读入 `<bos>` 和它的前 t 个输出,用来预"
    "测输出 t;列是输入符号。要复制,输出 t 是源位置 t 上的符号:训练好的头会画出一条**对角线**。"
    "每个头编号旁是它各行放在该位置上的平均权重。",
    "train.hint.cross.sort": "第 t 行 (从 0 数起) 是解码器读入 `<bos>` 和它的前 t 个输出,用来预"
    "测输出 t;列是输入符号。排序没有固定的位置:头必须找到按字母顺序的下一个符号,无论它在哪里。",
    "train.hint.decoder_self": "解码器的掩码自注意力:第 t 行只能看到第 0 到 t 个键 (对角线以上"
    "的权重恰好为 0)。",
    "train.hint.encoder_self": "编码器对输入符号的自注意力:每个符号都能看到所有符号。",
    "train.weight": "权重",
    "train.head_title": "头 {h}",
    "train.head_title_share": "头 {h} · {share}",
    "train.align.title": "交叉注意力头如何对齐",
    "train.align.text.reverse": "对每个交叉注意力头:在每个快照中,它的各行放在镜像源位置上的平均"
    "权重。学会了反转的头会升向 1。",
    "train.align.text.copy": "对每个交叉注意力头:在每个快照中,它的各行放在相同源位置上的平均"
    "权重。学会了复制的头会升向 1。",
    "train.align.value": "目标位置上的权重",
    "train.align.name": "第 {layer} 层,头 {h}",
    "train.try.title": "试一试",
    "train.try.label": "你的序列",
    "train.try.help": "由符号 {alphabet} 组成的 1 到 {max_len} 个符号,可带空格。模型训练时见过 "
    "{min_len} 到 {max_len} 个符号。",
    "train.try.empty": "请输入由符号 {alphabet} 组成的序列。",
    "train.try.unknown": "只能使用符号 {alphabet}。以下符号不在其中:",
    "train.try.length": "最多 {max_len} 个符号:这里有 {n} 个。",
    "train.try.answer": "输入 `{input}` → 模型 `{output}` · 正确答案 `{expected}`",
    "train.try.right": "正确。",
    "train.try.wrong": "错误。",
    "train.try.empty_output": "(空)",
    "train.try.outside": "模型训练时从未见过 {n} 个符号的序列(只见过 {min_len} 到 {max_len} 个):"
    "这里展示它如何推广。",
    "train.try.outside_one": "模型训练时从未见过只有 1 个符号的序列(只见过 {min_len} 到 "
    "{max_len} 个):这里展示它如何推广。",
    "train.try.attention": "产生这个回答的注意力:解码器一次一个符号地读入自己的回答 (第 t 行,从"
    " 0 数起,预测输出 t)。",
}
