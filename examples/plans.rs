fn main() {
    let source = eudify::rules::RuleSource::embedded();
    let rs = eudify::rules::load_ruleset(&source, "en").unwrap();
    let e = eudify::engine::Enhancer::new(&rs);
    for r in &e.rules {
        println!("{} anchor={:?} reads_enh={} enh_rel={:x}", r.rule.name, r.anchor, r.reads_enhanced, r.enhanced_relations);
        println!("   steps {:?}", r.plan.steps);
        for w in &r.withouts { println!("   without {:?}", w.steps); }
    }
}
